// Icons from the extension's own icons/ folder (a zip install has no system icons), else
// by name from the icon theme.
//@esm import Gio from 'gi://Gio';
//@legacy const {Gio} = imports.gi;

export const IconFinder = class IconFinder {
    constructor(extensionPath) {
        this._dir = Gio.File.new_for_path(extensionPath).get_child('icons');
        this._icons = new Map();
    }

    icon(name) {
        if (!this._icons.has(name)) {
            const file = this._dir.get_child(`${name}.svg`);
            this._icons.set(name, file.query_exists(null) ? new Gio.FileIcon({file}) : new Gio.ThemedIcon({name}));
        }
        return this._icons.get(name);
    }
};
