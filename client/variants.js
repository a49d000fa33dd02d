// The variants' titles, as every page names them ("Duo", "101").

const VARIANT_TITLES = {
  duo: "Duo", classic: "Classic", newfoundland: "Newfoundland", "ember-ridge": "Ember Ridge", "hundred-and-one": "101",
};

export function variantTitle(variant) {
  return VARIANT_TITLES[variant] || variant;
}
