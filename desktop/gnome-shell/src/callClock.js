// The one clock of every surface that shows a running call timer (the pill, its open menu,
// the lock-screen cards): a single one-shot timeout, armed for the soonest second boundary
// of the calls they show ticking (each call's own, counted from its answer time), so the
// shell wakes once a second for a call whatever shows it, and not at all while nothing ticks.
// A surface is an object with ticksFrom() (the answer times it shows ticking, unix ms) and
// tick(nowMs) (sets its timer texts); it calls update() after any change of what it shows.
//@esm import GLib from 'gi://GLib';
//@esm import * as Model from './model.js';
//@legacy const {GLib} = imports.gi;
//@legacy const Model = imports.misc.extensionUtils.getCurrentExtension().imports.model;

export const CallClock = class CallClock {
    constructor() {
        this._surfaces = new Set();
        this._timeoutId = 0;
    }

    add(surface) {
        this._surfaces.add(surface);
        this.update();
    }

    remove(surface) {
        this._surfaces.delete(surface);
        this.update();
    }

    // Arms the timeout for the soonest boundary of what the surfaces show ticking now, or
    // takes it away when nothing ticks.
    update() {
        this._stop();
        const times = [...this._surfaces].flatMap(surface => surface.ticksFrom());
        if (times.length === 0)
            return;
        this._timeoutId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, Model.nextTickDelay(times, Date.now()), () => {
            this._timeoutId = 0;
            const now = Date.now();
            for (const surface of this._surfaces)
                surface.tick(now);
            this.update();
            return GLib.SOURCE_REMOVE;
        });
        GLib.Source.set_name_by_id(this._timeoutId, '[relavoi] call timer');
    }

    destroy() {
        this._surfaces.clear();
        this._stop();
    }

    _stop() {
        if (this._timeoutId)
            GLib.source_remove(this._timeoutId);
        this._timeoutId = 0;
    }
};
