#!/usr/bin/python3
"""Drives relavoi-window as a person would, through GTK's accessibility tree (AT-SPI):
what it finds is what a screen reader finds. One action a run; exit 0 on success.

  atspi-driver.py unnamed                  controls without an accessible name (prints them; 0 = none)
  atspi-driver.py set-text NAME TEXT       types TEXT into the text field named NAME
  atspi-driver.py press NAME               presses the button named NAME
  atspi-driver.py tab NAME                 opens the page named NAME
  atspi-driver.py toggle NAME              flips the switch named NAME
  atspi-driver.py choose NAME ITEM         picks ITEM in the choice row named NAME
  atspi-driver.py shows TEXT               some visible text of the window contains TEXT
  atspi-driver.py windows                  prints the number of the app's windows
"""
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

# What a person operates: each needs a name a screen reader can say.
CONTROLS = {"push button", "toggle button", "check box", "switch", "combo box", "text", "password text",
            "entry", "spin button", "slider", "radio button", "menu item", "page tab", "link"}


def app():
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        child = desktop.get_child_at_index(i)
        if child is not None and (child.get_name() or "").startswith("relavoi-window"):
            return child
    sys.exit("relavoi-window is not on the accessibility bus")


def visible(node):
    states = node.get_state_set()
    return states.contains(Atspi.StateType.VISIBLE)


def walk(node, only_visible=True):
    if node is None:
        return
    if only_visible and not visible(node) and node.get_role_name() not in ("application",):
        return
    yield node
    for i in range(node.get_child_count()):
        yield from walk(node.get_child_at_index(i), only_visible)


def find(role_names, name):
    for node in walk(app()):
        # GTK 4.8 says a button's label twice when the label is its child ("Sign out Sign out").
        if node.get_role_name() in role_names and (node.get_name() or "").strip() in (name, f"{name} {name}"):
            return node
    sys.exit(f"no {'/'.join(sorted(role_names))} named {name!r}")


def act(node):
    if "Action" not in node.get_interfaces() or Atspi.Action.get_n_actions(node) == 0:
        sys.exit(f"{node.get_name()!r} has no action")
    Atspi.Action.do_action(node, 0)


def texts():
    for node in walk(app()):
        if node.get_role_name() in ("label", "text", "list item", "push button", "frame", "alert", "dialog"):
            yield node.get_name() or ""
            if "Text" in node.get_interfaces():
                yield Atspi.Text.get_text(node, 0, -1)


def main(argv):
    command = argv[1] if len(argv) > 1 else ""
    if command == "unnamed":
        missing = []
        for node in walk(app(), only_visible=False):
            role = node.get_role_name()
            name = (node.get_name() or "").strip()
            # GTK names a nameless widget after its class (GtkImage): that is no name either.
            if role in CONTROLS and (not name or name.startswith(("Gtk", "Adw"))):
                missing.append(f"{role} {name!r} in {node.get_parent().get_role_name()}")
        print(len(missing))
        for line in missing:
            print("  " + line)
        return 0 if not missing else 1
    if command == "set-text":
        node = find({"text", "password text", "entry"}, argv[2])
        Atspi.EditableText.set_text_contents(node, argv[3])
        return 0
    if command == "press":
        act(find({"push button", "toggle button"}, argv[2]))
        return 0
    if command == "tab":
        act(find({"page tab"}, argv[2]))
        return 0
    if command == "toggle":
        act(find({"check box", "switch", "toggle button"}, argv[2]))
        return 0
    if command == "choose":
        act(find({"combo box"}, argv[2]))
        # The list opens in a popover: wait for it (a person would, too).
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for node in walk(app()):
                if node.get_role_name() in ("list item", "label", "menu item") and (node.get_name() or "") == argv[3]:
                    target = node
                    while target is not None and target.get_role_name() not in ("list item", "menu item"):
                        target = target.get_parent()
                    act(target or node)
                    return 0
            time.sleep(0.2)
        sys.exit(f"no item {argv[3]!r}")
    if command == "shows":
        return 0 if any(argv[2] in text for text in texts()) else 1
    if command == "dump":
        for node in walk(app()):
            print(node.get_role_name(), repr(node.get_name()))
        return 0
    if command == "windows":
        print(app().get_child_count())
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
