// The Settings button of GNOME's Extensions app: the extension's preferences are the Relavoi
// window's, so this opens relavoi-window on its Settings page and closes the preferences
// window it was given, as GSConnect's preferences open GSConnect's own window.
//@esm import Adw from 'gi://Adw';
//@esm import GLib from 'gi://GLib';
//@esm import {ExtensionPreferences} from 'resource:///org/gnome/Shell/Extensions/js/extensions/prefs.js';
//@esm import {openWindow} from './windowLauncher.js';
//@legacy const {GLib, Gtk} = imports.gi;
//@legacy const Me = imports.misc.extensionUtils.getCurrentExtension();
//@legacy const {openWindow} = Me.imports.windowLauncher;

// Closed once the loop turns: closing it before it is shown would leave the Extensions
// app waiting on it.
export function closeSoon(rootOf) {
    GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
        rootOf()?.close();
        return GLib.SOURCE_REMOVE;
    });
}

//@esm export default class RelavoiPreferences extends ExtensionPreferences {
//@esm     fillPreferencesWindow(window) {
//@esm         // A page, so the window is well formed for the moment it lives.
//@esm         window.add(new Adw.PreferencesPage());
//@esm         openWindow('settings');
//@esm         closeSoon(() => window);
//@esm     }
//@esm }
//@legacy
//@legacy /* exported init, buildPrefsWidget */
//@legacy function init() {
//@legacy }
//@legacy
//@legacy function buildPrefsWidget() {
//@legacy     const placeholder = new Gtk.Box();
//@legacy     openWindow('settings');
//@legacy     closeSoon(() => placeholder.get_root());
//@legacy     return placeholder;
//@legacy }
