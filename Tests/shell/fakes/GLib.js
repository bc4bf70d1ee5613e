// A stand-in for GLib's timeouts: the test sees every one armed and fires them itself.
export const pending = new Map();
let nextId = 1;

export default {
    PRIORITY_DEFAULT: 0,
    SOURCE_REMOVE: false,
    SOURCE_CONTINUE: true,
    timeout_add(_priority, ms, callback) {
        const id = nextId++;
        pending.set(id, {ms, callback, at: Date.now() + ms, name: ''});
        return id;
    },
    source_remove(id) {
        if (!pending.delete(id))
            throw new Error(`source_remove(${id}): no such source`);
        return true;
    },
    Source: {
        set_name_by_id(id, name) {
            pending.get(id).name = name;
        },
    },
};
