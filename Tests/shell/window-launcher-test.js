// windowLauncher.js of one build opens the Relavoi window: gjs -m window-launcher-test.js
// legacy|esm BUILD_DIR PAGE calls openWindow(PAGE) on the session bus (where
// check-window-launcher.sh runs a stand-in com.relavoi.Agent.Settings) and prints "ok" once
// the window answered, else the error; exits 1 unless ok.
import GLib from 'gi://GLib';
import System from 'system';

const [form, dir, page] = ARGV;
let launcher;
if (form === 'legacy') {
    imports.searchPath.unshift(dir);
    launcher = imports.windowLauncher;
} else {
    launcher = await import(`file://${dir}/windowLauncher.js`);
}
const loop = new GLib.MainLoop(null, false);
let outcome = 'no answer in 20 s';
launcher.openWindow(page, error => {
    outcome = error ? `${error}` : 'ok';
    loop.quit();
});
GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 20, () => {
    loop.quit();
    return GLib.SOURCE_REMOVE;
});
loop.run();
print(outcome);
System.exit(outcome === 'ok' ? 0 : 1);
