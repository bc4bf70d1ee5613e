#!/usr/bin/python3
# Runs JavaScript in the test's GNOME Shell (started with --unsafe-mode, which lets
# org.gnome.Shell.Eval run) and prints the result as JSON. Exit 1 when the shell is not
# there yet or the code threw (the error goes to stderr).
#   shell-eval.py 'Main.layoutManager._startingUp'
import sys

from gi.repository import Gio, GLib

try:
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    reply = bus.call_sync("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval",
                          GLib.Variant("(s)", (sys.argv[1],)), GLib.VariantType("(bs)"),
                          Gio.DBusCallFlags.NO_AUTO_START, 10000, None)
except GLib.Error as e:
    print(e.message, file=sys.stderr)
    sys.exit(1)
ok, result = reply.unpack()
if not ok:
    print(result, file=sys.stderr)
    sys.exit(1)
print(result)
