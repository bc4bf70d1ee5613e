// Opens the Relavoi window (relavoi-window) on one page: its app.show-page action through
// org.freedesktop.Application.ActivateAction, as the agent opens it. The window is
// DBusActivatable, so the bus starts it when it does not run. Used by the pill's menu
// (Settings…) and by prefs.js (the Settings button of GNOME's Extensions app), which runs
// in its own process: so only Gio and GLib here, nothing of the shell's.
//@esm import Gio from 'gi://Gio';
//@esm import GLib from 'gi://GLib';
//@legacy const {Gio, GLib} = imports.gi;

export const WINDOW_APP_ID = 'com.relavoi.Agent.Settings';
export const WINDOW_OBJECT_PATH = '/com/relavoi/Agent/Settings';
export const WINDOW_PAGES = ['sign-in', 'status', 'settings'];
// A cold start of the window takes about half a second; one that never answers is logged.
const TIMEOUT_MS = 10000;

// page: one of WINDOW_PAGES. done(error or null) hears how it went, once.
export function openWindow(page, done = null) {
    const parameters = new GLib.Variant('(sava{sv})', ['show-page', [new GLib.Variant('s', page)], {}]);
    Gio.DBus.session.call(WINDOW_APP_ID, WINDOW_OBJECT_PATH, 'org.freedesktop.Application', 'ActivateAction',
        parameters, null, Gio.DBusCallFlags.NONE, TIMEOUT_MS, null, (connection, result) => {
            let error = null;
            try {
                connection.call_finish(result);
            } catch (e) {
                error = e;
                logError(e, `Relavoi: cannot open the Relavoi window (relavoi-window) on ${page}`);
            }
            done?.(error);
        });
}
