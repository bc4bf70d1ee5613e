// What the code under test did to the fake shell: one entry per property set on an actor
// ("NAME.PROP", NAME its style class) and per changing call ("NAME.METHOD(ARG)").
export const log = [];

export function clear() {
    log.length = 0;
}

// Signal handlers for the fakes.
export class Signals {
    constructor() {
        this._handlers = new Map();
        this._nextId = 1;
    }

    connect(signal, handler) {
        const id = this._nextId++;
        this._handlers.set(id, {signal, handler});
        return id;
    }

    disconnect(id) {
        this._handlers.delete(id);
    }

    emit(owner, signal, ...args) {
        for (const {signal: s, handler} of [...this._handlers.values()]) {
            if (s === signal)
                handler(owner, ...args);
        }
    }
}
