"""The ``data`` of interactions, built as a Discord client would from what the user picked.

Like the real client, these refuse what a person could not send: an unknown command or option, a
missing required option, a value outside the option's choices or range, a disabled button.
"""

from __future__ import annotations

from typing import Any

from tests.fakediscord.messages import FakeMessage, walk_components
from tests.fakediscord.models import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 3, 5, 6, 7, 8
TEXT_INPUT, LABEL = 4, 18
Resolved = dict[str, dict[str, Any]]


def find_command(
    commands: list[dict[str, Any]], path: str
) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """The synced root command, the sub-names below it, and the leaf (what takes options)."""
    root_name, *subs = path.split()
    root = next((c for c in commands if c["name"] == root_name and c.get("type", 1) == 1), None)
    if root is None:
        known = sorted(c["name"] for c in commands)
        raise LookupError(f"no synced slash command /{root_name}; synced: {known}")
    leaf = root
    for sub in subs:
        options = leaf.get("options") or []
        nxt = next((o for o in options if o["name"] == sub and o["type"] in (1, 2)), None)
        if nxt is None:
            raise LookupError(f"/{path}: no subcommand {sub!r} under {leaf['name']!r}")
        leaf = nxt
    if any(o["type"] in (SUBCOMMAND, GROUP) for o in leaf.get("options") or []):
        raise LookupError(f"/{path} is a group; name one of its subcommands")
    return root, subs, leaf


def _resolve(value: Any, guild: FakeGuild | None, resolved: Resolved) -> str:
    """Put a user, member, role or channel into ``resolved`` and return its id as a string."""
    if isinstance(value, FakeMember):
        value = value.user
    if isinstance(value, FakeUser):
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        if guild is not None and value.id in guild.members:
            member = guild.members[value.id].payload(with_user=False, with_permissions=True)
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    if isinstance(value, FakeChannel):
        data = value.payload() | {"permissions": str((1 << 51) - 1)}
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    raise TypeError(
        f"cannot resolve {value!r}: pass a FakeUser, FakeMember, FakeRole or FakeChannel"
    )


def _typed(option: dict[str, Any], value: Any, guild: FakeGuild | None, resolved: Resolved) -> Any:
    kind, name = option["type"], option["name"]
    if kind == STRING:
        value = str(value)
        low, high = option.get("min_length") or 0, option.get("max_length") or 6000
        if not low <= len(value) <= high:
            raise ValueError(f"option {name}: length must be {low}-{high}")
    elif kind in (INTEGER, NUMBER):
        if isinstance(value, bool):
            raise TypeError(f"option {name}: expected a number, got {value!r}")
        value = int(value) if kind == INTEGER else float(value)
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"option {name}: {value} is outside [{low}, {high}]")
    elif kind == BOOLEAN:
        value = bool(value)
    elif kind in (USER, CHANNEL, ROLE, MENTIONABLE):
        types = option.get("channel_types")
        if kind == CHANNEL and types and getattr(value, "type", None) not in types:
            raise ValueError(f"option {name}: channel type not in {types}")
        return _resolve(value, guild, resolved)
    else:
        raise NotImplementedError(f"option {name}: option type {kind} is not supported")
    choices = option.get("choices")
    if choices and value not in [choice["value"] for choice in choices]:
        raise ValueError(f"option {name}: {value!r} is not one of the choices {choices}")
    return value


def build_options(
    leaf: dict[str, Any],
    values: dict[str, Any],
    guild: FakeGuild | None,
    *,
    focused: str | None = None,
) -> tuple[list[dict[str, Any]], Resolved]:
    """Typed options for a command leaf, in the synced order; ``focused`` marks autocomplete."""
    definitions = {o["name"]: o for o in leaf.get("options") or []}
    unknown = set(values) - set(definitions)
    if unknown:
        raise LookupError(
            f"/{leaf['name']} has no option(s) {sorted(unknown)}: {sorted(definitions)}"
        )
    options: list[dict[str, Any]] = []
    resolved: Resolved = {}
    for name, definition in definitions.items():
        if name == focused:
            value = str(values.get(name, ""))
            options.append(
                {"name": name, "type": definition["type"], "value": value, "focused": True}
            )
            continue
        if name not in values:
            if definition.get("required") and focused is None:
                raise ValueError(f"/{leaf['name']}: the required option {name!r} is missing")
            continue
        typed = _typed(definition, values[name], guild, resolved)
        options.append({"name": name, "type": definition["type"], "value": typed})
    return options, resolved


def command_data(
    commands: list[dict[str, Any]],
    path: str,
    values: dict[str, Any],
    guild: FakeGuild | None,
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """The ``data`` of a slash command (or autocomplete) interaction for ``/path``."""
    root, subs, leaf = find_command(commands, path)
    if focused is not None and focused not in {o["name"] for o in leaf.get("options") or []}:
        raise LookupError(f"/{path} has no option {focused!r}")
    options, resolved = build_options(leaf, values, guild, focused=focused)
    chain, node = [], root
    for sub in subs:
        node = next(o for o in node["options"] if o["name"] == sub)
        chain.append((sub, node["type"]))
    for sub, kind in reversed(chain):
        options = [{"name": sub, "type": kind, "options": options}]
    data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": 1, "options": options}
    if resolved:
        data["resolved"] = resolved
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return data


def find_item(
    message: FakeMessage,
    kinds: set[int],
    *,
    label: str | None = None,
    custom_id: str | None = None,
    placeholder: str | None = None,
) -> dict[str, Any]:
    for component in walk_components(message.components):
        if component.get("type") not in kinds:
            continue
        if custom_id is not None and component.get("custom_id") != custom_id:
            continue
        if label is not None and component.get("label") != label:
            continue
        if placeholder is not None and component.get("placeholder") != placeholder:
            continue
        return component
    wanted = {"label": label, "custom_id": custom_id, "placeholder": placeholder}
    chosen = {k: v for k, v in wanted.items() if v is not None}
    raise LookupError(f"no component {chosen} in {message!r}; it has {message.components}")


def button_data(button: dict[str, Any]) -> dict[str, Any]:
    if button.get("disabled"):
        raise ValueError(f"the button {button.get('label')!r} is disabled; nobody can click it")
    if not button.get("custom_id"):
        raise ValueError(f"the button {button.get('label')!r} is a link, not an interaction")
    return {"custom_id": button["custom_id"], "component_type": 2, "id": button.get("id")}


def select_data(
    select: dict[str, Any], values: list[Any], guild: FakeGuild | None
) -> dict[str, Any]:
    if select.get("disabled"):
        raise ValueError(f"the select {select.get('custom_id')!r} is disabled")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not low <= len(values) <= high:
        raise ValueError(f"pick {low}-{high} values, not {len(values)}")
    data: dict[str, Any] = {
        "custom_id": select["custom_id"],
        "component_type": select["type"],
        "id": select.get("id"),
    }
    if select["type"] == STRING_SELECT:
        allowed = [option["value"] for option in select.get("options") or []]
        picked = [str(v) for v in values]
        if not set(picked) <= set(allowed):
            raise ValueError(f"{picked} are not all among the options {allowed}")
        data["values"] = picked
    else:
        resolved: Resolved = {}
        data["values"] = [_resolve(value, guild, resolved) for value in values]
        data["resolved"] = resolved
    return data


def _submitted(item: dict[str, Any], label: str | None, values: dict[str, Any]) -> dict[str, Any]:
    custom_id = item.get("custom_id")
    key = custom_id if custom_id in values else (label or "")
    if item["type"] == TEXT_INPUT:
        value = values.pop(key) if key in values else item.get("value") or ""
        if item.get("required", True) and not value:
            raise ValueError(f"the modal field {label or custom_id!r} is required")
        return {"type": TEXT_INPUT, "id": item.get("id"), "custom_id": custom_id, "value": value}
    if key in values:
        given = values.pop(key)
        picked = [str(v) for v in (given if isinstance(given, list) else [given])]
    else:  # untouched: the client sends what was preselected
        picked = [str(o["value"]) for o in item.get("options") or [] if o.get("default")]
    if item["type"] == STRING_SELECT:
        _check_picks(item, picked, label or str(custom_id))
    return {"type": item["type"], "id": item.get("id"), "custom_id": custom_id, "values": picked}


def _check_picks(item: dict[str, Any], picked: list[str], name: str) -> None:
    """What a Discord client lets a person submit in a modal's string select: only its options,
    each at most once, min_values..max_values of them, or none where it is not required."""
    allowed = [str(option["value"]) for option in item.get("options") or []]
    if not set(picked) <= set(allowed):
        raise ValueError(f"the modal select {name!r}: {picked} are not all among {allowed}")
    if len(set(picked)) != len(picked):
        raise ValueError(f"the modal select {name!r}: {picked} picks an option twice")
    if not picked:
        if item.get("required", True):
            raise ValueError(f"the modal select {name!r} is required")
        return
    low, high = item.get("min_values", 1), item.get("max_values", 1)
    if not low <= len(picked) <= high:
        raise ValueError(f"the modal select {name!r}: pick {low}-{high} options, not {len(picked)}")


def modal_data(modal: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """What Discord sends when the modal is submitted; ``values`` by custom_id or by label."""
    remaining = dict(values)
    components = []
    for index, component in enumerate(modal.get("components") or [], start=1):
        kind, cid = component.get("type"), component.get("id", index)
        if kind == 1:
            children = [_submitted(c, c.get("label"), remaining) for c in component["components"]]
            components.append({"type": 1, "id": cid, "components": children})
        elif kind == LABEL:
            item = _submitted(component["component"], component.get("label"), remaining)
            components.append({"type": LABEL, "id": cid, "component": item})
        else:
            components.append({"type": kind, "id": cid})
    if remaining:
        raise LookupError(f"the modal has no field(s) {sorted(remaining)}")
    return {"custom_id": modal["custom_id"], "components": components}
