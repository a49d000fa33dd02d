"""Seat credentials: a signed (room, seat, nonce), checked against the nonce in the room.

itsdangerous signs them with the server's secret, so a credential cannot be forged or
altered; the nonce kept in the room lets a seat be reset, which revokes every credential
issued for it before. A credential travels in a header or a socket message, never a URL.
"""

from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeSerializer

from .room import Room

SALT = "eights/seat/v1"


@dataclass(frozen=True)
class SeatClaim:
    token: str
    seat: int
    nonce: str


class SeatSigner:
    """Issues and reads seat credentials with one secret (or several, newest first, so a
    secret can be rotated without unseating anyone)."""

    def __init__(self, secrets: list[str]) -> None:
        if not secrets or not all(secrets):
            raise ValueError("the signing secret is empty")
        self._serializer = URLSafeSerializer(secrets[::-1], salt=SALT)

    def issue(self, token: str, seat: int, nonce: str) -> str:
        return str(self._serializer.dumps([token, seat, nonce]))

    def read(self, credential: object) -> SeatClaim | None:
        """The claim a credential makes, or None when it is not one we signed."""
        if not isinstance(credential, str) or len(credential) > 512:
            return None
        try:
            data = self._serializer.loads(credential)
        except BadSignature:
            return None
        if (
            not isinstance(data, list)
            or len(data) != 3
            or not isinstance(data[0], str)
            or not isinstance(data[1], int)
            or not isinstance(data[2], str)
        ):
            return None
        return SeatClaim(data[0], data[1], data[2])


def holds(room: Room, claim: SeatClaim) -> bool:
    """Whether the claim still holds its seat (same room, same nonce: not reset)."""
    if claim.token != room.token or not 0 <= claim.seat < room.players:
        return False
    seat = room.seats[claim.seat]
    return seat.kind == "human" and seat.nonce is not None and seat.nonce == claim.nonce
