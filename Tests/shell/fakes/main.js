// A stand-in for GNOME Shell's ui/main.js: the lock screen's clock, with its date label.
import {BoxLayout, Label} from './St.js';

const clock = new BoxLayout({style_class: 'unlock-dialog-clock'});
const date = new Label({text: 'Sunday December 6', style_class: 'unlock-dialog-clock-date'});
clock._children.push(date);
date._parent = clock;
clock._date = date;

export const screenShield = {_dialog: {_clock: clock}};
