// St widgets built the same way on every GNOME the extension supports.
//@esm import Clutter from 'gi://Clutter';
//@esm import St from 'gi://St';
//@legacy const {Clutter, St} = imports.gi;

// A vertical St.BoxLayout: GNOME 48 brought `orientation` and GNOME 51 dropped `vertical`,
// which 43 to 47 only have.
export function verticalBox(params) {
    const box = new St.BoxLayout(params);
    if ('orientation' in box)
        box.orientation = Clutter.Orientation.VERTICAL;
    else
        box.vertical = true;
    return box;
}
