// A stand-in for Pango: the enum the extension uses.
export default {EllipsizeMode: {NONE: 0, START: 1, MIDDLE: 2, END: 3}};
