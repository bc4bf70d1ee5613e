// A stand-in for GNOME Shell's ui/popupMenu.js: a menu that logs what is done to it.
import {log, Signals} from './log.js';
import {Actor, Label} from './St.js';

export class PopupBaseMenuItem extends Actor {
    constructor(params = {}) {
        super({style_class: params.style_class ?? 'popup-menu-item'});
    }
}

export class PopupMenuItem extends PopupBaseMenuItem {
    constructor(text, params = {}) {
        super(params);
        this.label = new Label({text, style_class: 'popup-menu-item-label'});
        this._children.push(this.label);
    }
}

export class PopupSeparatorMenuItem extends PopupBaseMenuItem {}

export class PopupMenu {
    constructor() {
        this.isOpen = false;
        this.box = new Actor({style_class: 'popup-menu-box'});
        this._signals = new Signals();
    }

    connect(signal, handler) {
        return this._signals.connect(signal, handler);
    }

    // As GNOME Shell's: an empty menu does not open.
    open() {
        if (this.isOpen || this.isEmpty())
            return;
        this.isOpen = true;
        this._signals.emit(this, 'open-state-changed', true);
    }

    close() {
        if (!this.isOpen)
            return;
        this.isOpen = false;
        this._signals.emit(this, 'open-state-changed', false);
    }

    removeAll() {
        log.push('menu.removeAll');
        this.box._children = [];
    }

    addMenuItem(item) {
        log.push('menu.addMenuItem');
        this.box._children.push(item);
    }

    addAction(text, callback) {
        log.push('menu.addAction');
        const item = new PopupMenuItem(text);
        item.activate = callback;
        this.box._children.push(item);
        return item;
    }

    isEmpty() {
        return this.box._children.length === 0;
    }
}
