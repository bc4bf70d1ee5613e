// A stand-in for St (and the Clutter.Actor under it): actors that log what is set on them.
import {log, Signals} from './log.js';

export class Actor {
    constructor(params = {}) {
        this._name = (params.style_class ?? this.constructor.name).split(' ').pop();
        this._signals = new Signals();
        this._children = [];
        this._parent = null;
        this._classes = new Set((params.style_class ?? '').split(' ').filter(c => c !== ''));
        this.visible = true;
        this.accessible_name = '';
        for (const [key, value] of Object.entries(params)) {
            if (key !== 'style_class')
                this[key] = value;
        }
        // Sets made after construction are logged (private fields, `_…`, are not).
        return new Proxy(this, {
            set(target, prop, value) {
                if (typeof prop === 'string' && !prop.startsWith('_'))
                    log.push(`${target._name}.${prop}`);
                target[prop] = value;
                return true;
            },
        });
    }

    // Its accessible: the relations set on it, as [type, the other actor's name].
    get_accessible() {
        const actor = this;
        this._relations ??= [];
        return {
            actor,
            add_relationship: (type, other) => actor._relations.push([type, other.actor._name]),
        };
    }

    connect(signal, handler) {
        return this._signals.connect(signal, handler);
    }

    disconnect(id) {
        this._signals.disconnect(id);
    }

    add_style_class_name(name) {
        log.push(`${this._name}.add_style_class_name(${name})`);
        this._classes.add(name);
    }

    remove_style_class_name(name) {
        log.push(`${this._name}.remove_style_class_name(${name})`);
        this._classes.delete(name);
    }

    has_style_class_name(name) {
        return this._classes.has(name);
    }

    add_child(child) {
        log.push(`${this._name}.add_child`);
        this._children.push(child);
        child._parent = this;
    }

    insert_child_above(child, sibling) {
        log.push(`${this._name}.insert_child_above`);
        this._children.splice(this._children.indexOf(sibling) + 1, 0, child);
        child._parent = this;
    }

    set_child_at_index(child, index) {
        const at = this._children.indexOf(child);
        if (at === index)
            return;
        log.push(`${this._name}.set_child_at_index`);
        this._children.splice(at, 1);
        this._children.splice(index, 0, child);
    }

    get_parent() {
        return this._parent;
    }

    get_children() {
        return [...this._children];
    }

    destroy_all_children() {
        log.push(`${this._name}.destroy_all_children`);
        this._children.forEach(child => child.destroy());
        this._children = [];
    }

    destroy() {
        this._signals.emit(this, 'destroy');
        if (this._parent)
            this._parent._children = this._parent._children.filter(child => child !== this);
        this._parent = null;
    }

    // The names of the actors shown below this one (an empty label shown still takes room).
    fakeShown() {
        const names = [];
        const walk = actor => {
            if (!actor.visible)
                return;
            names.push(actor._name);
            actor._children.forEach(walk);
        };
        this._children.forEach(walk);
        return names;
    }

    // Every visible label's text below this actor (what a person reads).
    fakeTexts() {
        const texts = [];
        const walk = actor => {
            if (!actor.visible)
                return;
            if (actor instanceof Label && actor.text !== '')
                texts.push(actor.text);
            actor._children.forEach(walk);
        };
        walk(this);
        return texts;
    }
}

export class Widget extends Actor {}
export class BoxLayout extends Actor {}
export class Icon extends Actor {}

export class Label extends Actor {
    constructor(params = {}) {
        super({text: '', clutter_text: {}, ...params});
    }
}

export const ClipboardType = {CLIPBOARD: 0};
export const Clipboard = {get_default: () => ({set_text: () => {}})};

export default {Widget, BoxLayout, Icon, Label, ClipboardType, Clipboard};
