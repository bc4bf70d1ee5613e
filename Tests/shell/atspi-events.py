#!/usr/bin/python3
"""Listens on the AT-SPI bus to the events a screen reader acts on and prints one JSON line
per event (flushed), with what Orca would say for it:

  atspi-events.py           prints READY once listening, then events until killed

Events: object:state-changed:showing (shown only), object:property-change:accessible-name,
window:create. Each line: {"t": seconds since the epoch, "event", "role", "name",
"focused", "showing", "text", "speaks"}. "text" is a notification's labels, as Orca gathers
them; "speaks" is Orca's rule (its scripts/default.py): a notification that becomes shown is
spoken ("notification" then its name and labels), a name change only for the focused object.
"""
import json
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402


def labels(node, depth=0):
    """The label texts under node, in order (Orca speaks a notification's labels)."""
    if node is None or depth > 12:
        return []
    out = []
    try:
        if node.get_role() == Atspi.Role.LABEL:
            text = node.get_name() or ""
            if not text:
                iface = node.get_text_iface()
                if iface is not None:
                    text = iface.get_text(0, iface.get_character_count())
            if text:
                out.append(text)
        for i in range(node.get_child_count()):
            out += labels(node.get_child_at_index(i), depth + 1)
    except Exception:  # an object gone meanwhile
        pass
    return out


def on_event(event):
    source = event.source
    try:
        role = source.get_role()
        states = source.get_state_set()
        name = source.get_name() or ""
    except Exception:
        return
    kind = event.type
    if kind.startswith("object:state-changed:showing") and not event.detail1:
        return
    focused = states.contains(Atspi.StateType.FOCUSED)
    text = " ".join(labels(source)) if role == Atspi.Role.NOTIFICATION else ""
    speaks = False
    if kind.startswith("object:state-changed:showing"):
        speaks = role == Atspi.Role.NOTIFICATION
    elif kind.startswith("object:property-change:accessible-name"):
        speaks = focused
    line = {"t": round(time.time(), 3), "event": kind, "role": source.get_role_name(), "name": name,
            "focused": focused, "showing": states.contains(Atspi.StateType.SHOWING), "text": text,
            "speaks": speaks}
    print(json.dumps(line, ensure_ascii=False), flush=True)


listener = Atspi.EventListener.new(on_event)
for kind in ("object:state-changed:showing", "object:property-change:accessible-name", "window:create"):
    listener.register(kind)
print("READY", flush=True)
sys.exit(Atspi.event_main() or 0)
