#!/usr/bin/python3
"""Drives relavoi-window as a person would, through GTK's accessibility tree (AT-SPI):
what it finds is what a screen reader finds. One action a run; exit 0 on success.

  atspi-driver.py unnamed                  controls without an accessible name (prints them; 0 = none)
  atspi-driver.py set-text NAME TEXT       types TEXT into the text field named NAME
  atspi-driver.py press NAME               presses the button named NAME
  atspi-driver.py tab NAME                 opens the page named NAME
  atspi-driver.py toggle NAME              flips the switch named NAME
  atspi-driver.py choose NAME ITEM         picks ITEM in the choice named NAME (its radio button, else
                                           the item in a combo row's list)
  atspi-driver.py focus-walk PAGE          Tabs through PAGE with the keyboard (XTest keys), prints each
                                           control focused; exit 1 when a shown control is never reached
  atspi-driver.py origin-column PAGE       the labels saying whose value each row shows ("Default",
                                           "Yours"...) end at one x (one column), by their extents
  atspi-driver.py radio-group              the lock-screen choice as a radio group by keyboard: one Tab
                                           stop (the chosen radio button), the arrows move the choice
                                           within it, Tab and Shift+Tab leave it; prints what it saw
  atspi-driver.py key KEY                  presses KEY (Return, Tab…) on the focused control
  atspi-driver.py tab-to NAME              Tabs until the push button NAME has the keyboard's focus
  atspi-driver.py shows TEXT               some visible text of the window contains TEXT
  atspi-driver.py windows                  prints the number of the app's windows
  atspi-driver.py secret-off-bus NAME      sets the text field NAME to a secret read from stdin, as
                                           the typing would, and listens: exit 0 when text-changed
                                           events came and neither they nor the field's Text
                                           interface (GetText, GetCharacterAtOffset) held any of
                                           its characters, 1 when they did,
                                           3 when no event came (prints counts, never the secret)
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


def focused():
    for node in walk(app()):
        if node.get_state_set().contains(Atspi.StateType.FOCUSED):
            return node
    return None


def press_key(name):
    # Through the X server (XTest), as a keyboard would: GTK sees a real key press.
    keyval = {"Tab": 0xFF09, "Return": 0xFF0D, "ISO_Left_Tab": 0xFE20, "Down": 0xFF54, "Up": 0xFF52, "Left": 0xFF51,
              "Right": 0xFF53, "space": 0x20, "x": 0x78, "BackSpace": 0xFF08}[name]
    Atspi.generate_keyboard_event(keyval, None, Atspi.KeySynthType.SYM)
    time.sleep(0.15)


def label_of(node):
    return f"{node.get_role_name()} {(node.get_name() or '').strip()!r}"


def into_window():
    # No window manager under Xvfb: keys go to the window under the pointer.
    # (nor any placement: the window sits at the screen's top left, and GTK 4 reports no
    # screen coordinates, only its size).
    size = app().get_child_at_index(0).get_extents(Atspi.CoordType.WINDOW)
    Atspi.generate_mouse_event(max(1, size.width // 2), 10, "abs")
    time.sleep(0.1)


def tab_to(name):
    into_window()
    for _ in range(80):
        press_key("Tab")
        node = focused()
        if node is not None and node.get_role_name() == "push button" and \
                (node.get_name() or "").strip() in (name, f"{name} {name}"):
            return 0
    sys.exit(f"Tab never reached the button {name!r}")


PAGES = ["Sign in", "Status", "Settings"]
# The lock-screen choice's radio rows, in order (one Tab stop: the chosen one).
RADIO_ORDER = ["Label and last digits", "Label and whole number", "Badge only", "Nothing"]
RADIO_CHOICES = set(RADIO_ORDER)


def radio_name(node):
    # A choice of the group (its radio button, or its row), else None.
    if node is None or node.get_role_name() not in ("radio button", "check box", "list item"):
        return None
    name = (node.get_name() or "").strip()
    return name if name in RADIO_CHOICES else None


def checked(node):
    return node.get_state_set().contains(Atspi.StateType.CHECKED)


def tab_to_radio_group():
    into_window()
    for _ in range(80):
        press_key("Tab")
        if radio_name(focused()) is not None:
            return focused()
    sys.exit("Tab never reached the radio choices")


def choose_by_keyboard(name):
    # The arrows move the choice (and the focus) within the group; Space on the focused one,
    # as a person makes sure.
    tab_to_radio_group()
    for key in ["Down"] * 4 + ["Up"] * 4:
        if radio_name(focused()) == name:
            press_key("space")
            return 0
        press_key(key)
    sys.exit(f"the arrows never reached {name!r} (last: {label_of(focused()) if focused() else None})")


ORIGINS = ("Default", "Yours", "Administrator default")


def origin_column(page):
    # GTK 4.8 reports a widget's extents within its window: enough to compare columns.
    ends = {}
    for node in walk(page_root(page)):
        name = (node.get_name() or "").strip()
        if node.get_role_name() == "label" and (name in ORIGINS or name.startswith("From ")):
            box = node.get_extents(Atspi.CoordType.WINDOW)
            ends.setdefault(box.x + box.width, []).append(f"{name}@y{box.y}")
    count = sum(len(v) for v in ends.values())
    if len(ends) == 1:
        print(f"{count} labels, all ending at x={next(iter(ends))}")
        return 0 if count else 1
    print(f"{count} labels end at {len(ends)} different x: {dict(sorted(ends.items()))}")
    return 1


def radio_group():
    # One Tab stop: Tab enters the group on its chosen radio button, the next Tab leaves it.
    entered = tab_to_radio_group()
    seen = [label_of(entered)]
    problems = []
    if entered.get_role_name() != "radio button":
        problems.append(f"the group's Tab stop is a {entered.get_role_name()}, not a radio button")
    if not checked(entered):
        problems.append(f"Tab entered the group on {radio_name(entered)!r}, which is not the chosen one")
    start = RADIO_ORDER.index(radio_name(entered))
    # The arrows: Down (or Right) to the next choice, chosen as it is reached; Up (or Left) back.
    steps = [("Down", 1), ("Right", 1), ("Up", -1), ("Left", -1)]
    at = start
    for key, move in steps:
        if not 0 <= at + move < len(RADIO_ORDER):
            move = -move
            key = {"Down": "Up", "Right": "Left", "Up": "Down", "Left": "Right"}[key]
        press_key(key)
        at += move
        node = focused()
        seen.append(f"{key}: {label_of(node) if node else None}{' (chosen)' if node and checked(node) else ''}")
        if radio_name(node) != RADIO_ORDER[at] or not checked(node):
            problems.append(f"{key} did not move the choice to {RADIO_ORDER[at]!r}")
    press_key("Tab")
    after = focused()
    seen.append(f"Tab: {label_of(after) if after else None}")
    if radio_name(after) is not None:
        problems.append("Tab moved to another choice of the group instead of leaving it")
    press_key("ISO_Left_Tab")
    back = focused()
    seen.append(f"Shift+Tab: {label_of(back) if back else None}")
    if radio_name(back) != RADIO_ORDER[at] or not checked(back):
        problems.append("Shift+Tab did not come back to the chosen radio button")
    print("; ".join(seen) + ("" if not problems else " -- " + "; ".join(problems)))
    return 1 if problems else 0


def page_root(page):
    # The view stack holds the pages' scroll panes in the order of PAGES (GTK 4.8 reports no
    # SHOWING state, so a page is told apart by where it sits).
    for node in walk(app()):
        panes = [node.get_child_at_index(i) for i in range(node.get_child_count())]
        panes = [p for p in panes if p is not None and p.get_role_name() == "scroll pane"]
        if len(panes) == len(PAGES):
            return panes[PAGES.index(page)]
    sys.exit("no view stack with the pages")


def inside(node, root):
    while node is not None:
        if node == root:
            return True
        node = node.get_parent()
    return False


def focus_walk(page):
    into_window()
    root = page_root(page)
    # The controls a person could use on this page: sensitive, of an operable role.
    wanted = set()
    for node in walk(root):
        states = node.get_state_set()
        if node.get_role_name() in CONTROLS and states.contains(Atspi.StateType.SENSITIVE) and \
                node.get_role_name() != "page tab":
            wanted.add(label_of(node))
    # A radio group is one Tab stop (its chosen button); the arrows reach the others
    # (radio-group checks that).
    radio_others = {label_of(n) for n in walk(root) if radio_name(n) is not None and n.get_role_name() != "list item"
                    and not checked(n)}
    wanted -= radio_others
    reached, order = set(), []

    def where():
        node = focused()
        return label_of(node) if node is not None and inside(node, root) else None

    for _ in range(2 * len(wanted) + 10):
        press_key("Tab")
        text = where()
        if text is not None:
            order.append(text)
            reached.add(text)
        if wanted <= reached:
            break
    missing = sorted(wanted - reached)
    # GTK 4.8 never reports the focus of an entry row's text (AdwEntryRow, AdwPasswordEntryRow):
    # those are told apart, exit 3 when they are all that is missing.
    unseen = [m for m in missing if m.startswith(("text ", "password text "))]
    print(f"{page}: {len(wanted)} controls, {len(wanted & reached)} seen focused by Tab" +
          (f"; radio choices reached by the arrows, not Tab: {len(radio_others)}" if radio_others else "") +
          (f"; unseen: {len(unseen)} entry rows, whose focus GTK 4.8 does not report" if unseen else "") +
          (f"; never reached: {sorted(set(missing) - set(unseen))}; focus went: {order}" if len(missing) > len(unseen) else ""))
    return 0 if not missing else (3 if len(unseen) == len(missing) else 1)


def secret_off_bus(name, secret):
    # What a screen reader gets of a hidden field: GTK's text-changed events (the inserted and
    # deleted characters) and the Text interface. Holding none of the secret's characters is
    # the check: a dot for each is what is drawn.
    from gi.repository import GLib
    node = find({"text", "password text", "entry"}, name)
    payloads = []

    def heard(event):
        source = event.source
        if source is not None and (source.get_name() or "").strip() == name:
            payloads.append(event.any_data if isinstance(event.any_data, str) else "")

    listener = Atspi.EventListener.new(heard)
    listener.register("object:text-changed:insert")
    listener.register("object:text-changed:delete")
    Atspi.EditableText.set_text_contents(node, secret)
    # Wait for the insert's event (not a sleep): the main loop turns until it came.
    context = GLib.MainContext.default()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not any(p for p in payloads):
        context.iteration(False)
        time.sleep(0.02)
    listener.deregister("object:text-changed:insert")
    listener.deregister("object:text-changed:delete")
    # GTK 4.8 answers GetText on this field with "" but each character on its own.
    count = Atspi.Text.get_character_count(node)
    held = (Atspi.Text.get_text(node, 0, -1) or "") + \
        "".join(chr(Atspi.Text.get_character_at_offset(node, i)) for i in range(count))
    characters = set(secret)
    leaked = [p for p in payloads + [held] if characters & set(p)]
    print(f"{len(payloads)} text-changed events, Text holds {count} characters, "
          f"{len(leaked)} with any of the secret's {len(secret)} characters")
    if not any(payloads):
        return 3
    return 1 if leaked else 0


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
        # Radio rows: each choice is its own control, named for itself (GTK 4.8 says "check
        # box" for a GtkCheckButton in a group, later ones "radio button").
        for node in walk(app()):
            if node.get_role_name() in ("radio button", "check box") and \
                (node.get_name() or "").strip() in (argv[3], f"{argv[3]} {argv[3]}"):
                if "Action" in node.get_interfaces() and Atspi.Action.get_n_actions(node) > 0:
                    act(node)
                    return 0
                # GTK 4.8 gives a check button (and its row) no AT-SPI action: the keyboard
                # does it, as a person would: Tab to the group's chosen choice, arrows to
                # this one, Space.
                return choose_by_keyboard(argv[3])
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
    if command == "combo-by-keyboard":
        # libadwaita 1.2's combo row offers AT-SPI no action: Tab to it, Space opens its
        # list at the chosen item, Down N times, Enter takes it.
        into_window()
        for _ in range(80):
            press_key("Tab")
            node = focused()
            if node is not None and node.get_role_name() == "combo box" and \
                    (node.get_name() or "").strip() in (argv[2], f"{argv[2]} {argv[2]}"):
                break
        else:
            sys.exit(f"Tab never reached the combo box {argv[2]!r}")
        press_key("space")
        time.sleep(0.5)
        for _ in range(int(argv[3])):
            press_key("Down")
        press_key("Return")
        return 0
    if command == "type-until-shown":
        # Keyboard only: Tab, type, until the page shows what the typed field makes of it
        # (GTK 4.8 exposes neither an entry row's focus nor its text over AT-SPI, but the
        # labels a field updates as it is typed into are readable).
        into_window()
        for _ in range(12):
            press_key("Tab")
            for character in argv[2]:
                Atspi.generate_keyboard_event(ord(character), None, Atspi.KeySynthType.SYM)
                time.sleep(0.03)
            time.sleep(0.3)
            if any(argv[3] in text for text in texts()):
                return 0
        sys.exit(f"typing {argv[2]!r} after a Tab never showed {argv[3]!r}")
    if command == "focus-walk":
        return focus_walk(argv[2])
    if command == "origin-column":
        return origin_column(argv[2])
    if command == "radio-group":
        return radio_group()
    if command == "tab-to":
        return tab_to(argv[2])
    if command == "key":
        press_key(argv[2])
        return 0
    if command == "shows":
        return 0 if any(argv[2] in text for text in texts()) else 1
    if command == "dump":
        for node in walk(app()):
            print(node.get_role_name(), repr(node.get_name()))
        return 0
    if command == "secret-off-bus":
        return secret_off_bus(argv[2], sys.stdin.read().strip())
    if command == "windows":
        print(app().get_child_count())
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
