// A stand-in for GNOME Shell's ui/panelMenu.js: a panel button with a menu.
import {PopupMenu} from './popupMenu.js';
import {Actor} from './St.js';

export class Button extends Actor {
    constructor(...args) {
        super({style_class: 'panel-button'});
        this._init(...args);
    }

    _init(_menuAlignment, nameText, _dontCreateMenu) {
        this.menu = new PopupMenu();
        this._sensitive = true;
        this._nameText = nameText;
    }

    setSensitive(sensitive) {
        this._sensitive = sensitive;
    }
}
