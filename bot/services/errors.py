"""Typed errors of the services: like the rules' errors, a :class:`DomainError` with a stable
``code`` for the message catalogues (en, pl) and ``params`` for its placeholders. Nothing was
changed when one is raised."""

from __future__ import annotations

from bot.rules.common import DomainError


class ServiceError(DomainError):
    code = "service_error"


class UnknownCharacter(ServiceError):
    """No living character by that id (``character``) or name (``name``) in the guild."""

    code = "unknown_character"


class DuplicateName(ServiceError):
    """Another character of the guild has this name, ignoring case (``name``)."""

    code = "duplicate_name"


class NameInvalid(ServiceError):
    """``reason``: ``empty``, ``too_long`` (with ``max``) or ``bad_character`` (with ``char``)."""

    code = "name_invalid"


class PurseTooLow(ServiceError):
    """The purse holds less than the movement needs (``character``, ``amount``, ``balance``,
    ``currency``): the ledger's refusal. The rules' own ``InsufficientFunds`` is a seat's funds at
    a table falling short of a price (other placeholders, another code)."""

    code = "purse_insufficient_funds"


class NotOwner(ServiceError):
    """The user neither owns the character nor acts as GM (``character``, ``user``)."""

    code = "not_owner"


class CharacterSeated(ServiceError):
    """The character holds a seat at a live table (``character``, ``tables``)."""

    code = "character_seated"


class AlreadyInMatch(ServiceError):
    """The character already plays a match of a one-at-a-time game (``character``, ``table``)."""

    code = "already_in_match"


class StaleAction(ServiceError):
    """The button belonged to an older state of the table (``table``, ``expected``, ``current``)."""

    code = "stale_action"


class UnknownTable(ServiceError):
    code = "unknown_table"


class TableClosed(ServiceError):
    """The table is finished or cancelled (``table``, ``status``)."""

    code = "table_closed"


class UnknownGame(ServiceError):
    code = "unknown_game"


class SamePurse(ServiceError):
    """Paying a character from its own purse (``character``)."""

    code = "same_purse"


class AmountNotPositive(ServiceError):
    code = "amount_not_positive"


class UnknownCurrency(ServiceError):
    code = "unknown_currency"


class InvalidSideCards(ServiceError):
    """A side-card list was refused (``reason``: ``unknown_card`` with ``card``, or
    ``not_owned`` / ``wrong_size`` as in the rules' ``InvalidSelection``)."""

    code = "invalid_side_cards"


class TraitInvalid(ServiceError):
    """A trait out of range (``trait``, ``value``, ``min``, ``max``)."""

    code = "trait_invalid"


class PotMismatch(ServiceError):
    """A new table's pot would not hold what its rules expect (``expected``, ``found``): e.g. a
    carried pot in the settings without ``carry_from``, or with the wrong amount."""

    code = "pot_mismatch"


class UnknownChallenge(ServiceError):
    """No challenge by that id (``challenge``)."""

    code = "pazaak_challenge_unknown"


class ChallengeAnswered(ServiceError):
    """The challenge is no longer pending (``status``: accepted, declined, withdrawn, expired)."""

    code = "pazaak_challenge_answered"


class ChallengeExpired(ServiceError):
    """The challenge's time ran out before it was accepted; nothing moved."""

    code = "pazaak_challenge_expired"
