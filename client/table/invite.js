// The invitation: the link with Copy and Share, its QR code, and "Waiting for your friend".
import { h, announce, toast } from "../dom.js";

export function invitePanel(link, { again = false, many = false } = {}) {
  const input = h("input", {
    class: "link-input",
    testid: "invite-link",
    type: "text",
    readonly: true,
    value: link,
    "aria-label": "Invitation link",
    onfocus: (e) => e.target.select(),
  });
  const copy = h("button", {
    type: "button",
    class: "btn primary",
    testid: "copy-link",
    onclick: async () => {
      const ok = await copyText(link, input);
      const text = ok ? "Link copied. Send it to your friend." : "Select the link and copy it.";
      copy.textContent = ok ? "Copied" : "Copy";
      toast(text);
      announce(text);
      window.setTimeout(() => { copy.textContent = "Copy"; }, 2000);
    },
  }, "Copy");
  const share = navigator.share
    ? h("button", {
      type: "button",
      class: "btn",
      testid: "share-link",
      onclick: () => {
        navigator.share({ title: "Eights", text: "Join me at my card table", url: link }).catch(() => {});
      },
    }, "Share")
    : null;
  // The server draws the code (segno) for this table's own link: nothing to encode here.
  const token = link.split("/t/")[1] || "";
  const qr = h("div", { class: "qr", testid: "qr", dataset: { text: link } },
    h("img", {
      src: `/api/rooms/${encodeURIComponent(token)}/qr.svg`,
      alt: "QR code of the invitation link",
      width: "220",
      height: "220",
      style: { display: "block", width: "100%", height: "auto" },
    }));
  return h("section", { class: "invite", testid: "invite", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, again ? "Your friend’s seat is free" : many ? "Invite your friends" : "Invite your friend"),
    h("p", {}, again
      ? "Send the link again. Whoever opens it first sits down in this same game."
      : many ? "Send this link. Each friend who opens it takes the next free seat."
        : "Send this link. The first person to open it takes the second seat."),
    h("div", { class: "link-row" }, input, copy, share),
    qr,
    h("p", { class: "small muted" }, "Or let your friend scan the code with a phone camera."),
    h("p", { class: "waiting-friend", testid: "waiting-friend", role: "status" },
      h("span", { class: "spinner", "aria-hidden": "true" }), many ? "Waiting for your friends…" : "Waiting for your friend…"));
}

async function copyText(text, input) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall back to selecting the text.
  }
  try {
    input.focus();
    input.select();
    return document.execCommand("copy");
  } catch {
    return false;
  }
}
