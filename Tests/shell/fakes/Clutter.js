// A stand-in for Clutter: the enums the extension uses.
export default {
    ActorAlign: {FILL: 0, START: 1, CENTER: 2, END: 3},
    Orientation: {HORIZONTAL: 0, VERTICAL: 1},
};
