#!/usr/bin/python3
"""A STAND-IN for GDM on a private system bus, for Tests/shell/check-gnome-shell.sh only.

GNOME Shell builds its lock screen only when it thinks it can lock: /run/systemd/seats
exists and the display manager answers org.gnome.DisplayManager.Manager's Version on the
system bus. This answers that one property and nothing else; it never runs on a real
system bus (the check starts its own). Prints READY once it owns the name.
"""
from gi.repository import Gio, GLib

XML = """<node><interface name="org.gnome.DisplayManager.Manager">
  <property name="Version" type="s" access="read"/>
</interface></node>"""


def get_property(_connection, _sender, _path, _interface, name):
    return GLib.Variant("s", "43.0") if name == "Version" else None


bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
interface = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
bus.register_object("/org/gnome/DisplayManager/Manager", interface, None, get_property, None)
Gio.bus_own_name_on_connection(
    bus, "org.gnome.DisplayManager", Gio.BusNameOwnerFlags.NONE, lambda *_: print("READY", flush=True), None
)
GLib.MainLoop().run()
