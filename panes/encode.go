package panes

// This file turns a Key into the bytes the program in a pane expects, given
// the modes the program set (vtgrid.Modes). One scheme is chosen per key,
// in this order:
//
//  1. the kitty keyboard protocol, when the pane pushed flags that include
//     disambiguate (1) or report-all-keys (8): CSI code;mods u, with the
//     spec's exceptions (unmodified Enter, Tab and Backspace stay legacy
//     unless report-all-keys is set; arrows, Home/End, Insert/Delete,
//     PageUp/Down and F1-F12 keep their CSI 1;mods X and CSI n;mods ~ forms);
//  2. xterm's modifyOtherKeys (XTMODKEYS 4) level 1 or 2, for modified
//     keys that the legacy scheme cannot tell apart: CSI 27;mods;code ~;
//  3. legacy xterm: text as UTF-8, C0 bytes for Ctrl, an ESC prefix for
//     Meta, CSI/SS3 sequences for functional keys (SS3 A for Up under
//     DECCKM, SS3 p..y for the keypad under DECKPAM), CSI 1;mods X for
//     modified functional keys.
//
// Shift+Enter, the key agents use to start a new line without submitting:
// kitty flags → CSI 13;2u; modifyOtherKeys 1 or 2 → CSI 27;2;13~; legacy →
// EncodeOptions.ShiftEnter, by default ESC CR (Meta+Enter). Legacy
// terminals send a bare CR, which would submit a half-written prompt; ESC
// CR is what Claude Code calls Option+Enter and what Codex reads as
// Alt+Enter, and both insert a newline for it (checked with Claude Code
// 2.1.197 and Codex 0.171.0 in tmux).

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"clowder/vtgrid"
)

// Kitty keyboard protocol flags, as pushed with CSI > flags u.
const (
	KittyDisambiguate   uint8 = 1  // Esc and modified keys as CSI u
	KittyEventTypes     uint8 = 2  // press/repeat/release (we only send presses)
	KittyAlternateKeys  uint8 = 4  // shifted key as a sub-field
	KittyAllKeys        uint8 = 8  // every key, text included, as an escape code
	KittyAssociatedText uint8 = 16 // the typed text as code points (with KittyAllKeys)
)

// DefaultShiftEnter is what Shift+Enter sends to a pane in legacy mode
// unless its adapter says otherwise: ESC CR (Meta+Enter).
const DefaultShiftEnter = "\x1b\r"

// EncodeOptions tune encoding for one pane beyond its modes; the zero value
// is the default. An adapter supplies them (Adapter.EncodeOptions).
type EncodeOptions struct {
	// ShiftEnter is sent for Shift+Enter when the pane uses neither kitty
	// flags nor modifyOtherKeys. Empty means DefaultShiftEnter.
	ShiftEnter string
}

func (o EncodeOptions) shiftEnter() string {
	if o.ShiftEnter == "" {
		return DefaultShiftEnter
	}
	return o.ShiftEnter
}

// Encode returns the bytes for k in a pane with modes m, with the default
// options.
func Encode(k Key, m vtgrid.Modes) []byte { return EncodeWith(k, m, EncodeOptions{}) }

// EncodeWith returns the bytes for k in a pane with modes m.
func EncodeWith(k Key, m vtgrid.Modes, o EncodeOptions) []byte {
	if m.KittyKeyboard&(KittyDisambiguate|KittyAllKeys) != 0 {
		return encodeKitty(k, m.KittyKeyboard)
	}
	if m.ModifyOtherKeys > 0 {
		if b, ok := encodeModifyOther(k, m.ModifyOtherKeys); ok {
			return b
		}
	}
	return encodeLegacy(k, m, o)
}

// EncodeKeys concatenates the encodings of keys, for one write.
func EncodeKeys(keys []Key, m vtgrid.Modes, o EncodeOptions) []byte {
	var out []byte
	for _, k := range keys {
		out = append(out, EncodeWith(k, m, o)...)
	}
	return out
}

// EncodeText returns literal text (send-keys -l) for a pane: the UTF-8
// bytes as they are, except under kitty report-all-keys, where a program
// expects every key as an escape code and each character becomes one.
func EncodeText(s string, m vtgrid.Modes) []byte {
	if m.KittyKeyboard&KittyAllKeys == 0 {
		return []byte(s)
	}
	var out []byte
	for _, r := range s {
		out = append(out, encodeKitty(textKey(r), m.KittyKeyboard)...)
	}
	return out
}

// textKey is the key that types r: control characters are their keys
// (CR is Enter, ESC is Escape, ^A is Ctrl+a), anything else is itself.
func textKey(r rune) Key {
	switch r {
	case '\r', '\n':
		return Key{Code: KeyEnter}
	case '\t', 0x1b, 0x7f:
		return Key{Code: Code(r)}
	}
	if r == 0 {
		return Key{Code: KeySpace, Mod: ModCtrl}
	}
	if r < 0x20 {
		return normalize(Key{Code: Code(r + 0x40), Mod: ModCtrl})
	}
	return Key{Code: Code(r)}
}

// csiForm is how a functional key is written: CSI num;mods final, with
// num omitted when it is 1 and there are no modifiers. ss3 marks keys that
// switch to SS3 final under DECCKM (legacy, unmodified).
type csiForm struct {
	num   int
	final byte
	ss3   bool
}

// legacyFunctional is xterm's table (and the kitty spec's legacy table).
var legacyFunctional = map[Code]csiForm{
	KeyUp: {1, 'A', true}, KeyDown: {1, 'B', true}, KeyRight: {1, 'C', true}, KeyLeft: {1, 'D', true},
	KeyHome: {1, 'H', true}, KeyEnd: {1, 'F', true},
	KeyInsert: {2, '~', false}, KeyDelete: {3, '~', false},
	KeyPageUp: {5, '~', false}, KeyPageDown: {6, '~', false},
	KeyF1: {1, 'P', false}, KeyF1 + 1: {1, 'Q', false}, KeyF1 + 2: {1, 'R', false}, KeyF1 + 3: {1, 'S', false},
	KeyF1 + 4: {15, '~', false}, KeyF1 + 5: {17, '~', false}, KeyF1 + 6: {18, '~', false},
	KeyF1 + 7: {19, '~', false}, KeyF1 + 8: {20, '~', false}, KeyF1 + 9: {21, '~', false},
	KeyF1 + 10: {23, '~', false}, KeyF1 + 11: {24, '~', false},
}

// csi writes CSI num;(1+mods) final in its shortest form.
func csi(f csiForm, mods Mod) []byte {
	b := []byte("\x1b[")
	switch {
	case mods != 0:
		b = strconv.AppendInt(b, int64(f.num), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(mods)+1, 10)
	case f.final == '~':
		b = strconv.AppendInt(b, int64(f.num), 10)
	}
	return append(b, f.final)
}

// encodeLegacy is the xterm encoding with no keyboard extensions.
func encodeLegacy(k Key, m vtgrid.Modes, o EncodeOptions) []byte {
	if f, ok := legacyFunctional[k.Code]; ok {
		return legacyFunctionalKey(f, k.Mod, m.AppCursor)
	}
	if k.Code.isKeypad() {
		return legacyKeypad(k, m, o)
	}
	if k.Code == KeyEnter && k.Mod == ModShift {
		return []byte(o.shiftEnter())
	}
	var out []byte
	if k.Mod&ModAlt != 0 {
		out = append(out, 0x1b)
	}
	return append(out, legacyBase(k)...)
}

// legacyFunctionalKey writes an arrow, Home/End, editing or F key: SS3 for
// F1-F4 and (under DECCKM) arrows and Home/End when unmodified.
func legacyFunctionalKey(f csiForm, mods Mod, appCursor bool) []byte {
	if mods == 0 && f.final != '~' && (f.num == 1 && !f.ss3 || f.ss3 && appCursor) {
		return []byte{0x1b, 'O', f.final}
	}
	return csi(f, mods)
}

// legacyBase is a non-functional key without its Meta prefix, following
// the C0 table of the kitty spec's legacy section (which is xterm's).
func legacyBase(k Key) []byte {
	switch k.Code {
	case KeyEnter:
		return []byte{'\r'}
	case KeyEscape:
		return []byte{0x1b}
	case KeyTab:
		if k.Mod&ModShift != 0 {
			return []byte("\x1b[Z")
		}
		return []byte{'\t'}
	case KeyBackspace:
		if k.Mod&ModCtrl != 0 {
			return []byte{0x08}
		}
		return []byte{0x7f}
	}
	r := rune(k.Code)
	if k.Mod&ModCtrl != 0 {
		if c, ok := ctrlByte(r); ok {
			return []byte{c}
		}
	}
	if k.Mod&ModShift != 0 {
		r = unicode.ToUpper(r)
	}
	return utf8.AppendRune(nil, r)
}

// ctrlByte is the C0 byte Ctrl+r sends, per the kitty spec's "legacy ctrl
// mapping" table (a superset of the VT100's). Keys not in the table are
// left untouched by Ctrl.
func ctrlByte(r rune) (byte, bool) {
	switch {
	case r >= 'a' && r <= 'z':
		return byte(r - 'a' + 1), true
	case r >= '@' && r <= '_': // @ A-Z [ \ ] ^ _
		return byte(r - '@'), true
	}
	switch r {
	case ' ', '2':
		return 0, true
	case '3':
		return 0x1b, true
	case '4':
		return 0x1c, true
	case '5':
		return 0x1d, true
	case '6', '~':
		return 0x1e, true
	case '7', '/':
		return 0x1f, true
	case '8', '?':
		return 0x7f, true
	}
	return 0, false
}

// keypadSS3 is the DECKPAM (application keypad) final byte of each key.
var keypadSS3 = map[Code]byte{
	KeyKPDecimal: 'n', KeyKPDivide: 'o', KeyKPMultiply: 'j', KeyKPSubtract: 'm',
	KeyKPAdd: 'k', KeyKPEnter: 'M', KeyKPEqual: 'X',
}

// keypadText is what each keypad key types in numeric mode.
var keypadText = map[Code]Code{
	KeyKPDecimal: '.', KeyKPDivide: '/', KeyKPMultiply: '*', KeyKPSubtract: '-',
	KeyKPAdd: '+', KeyKPEnter: KeyEnter, KeyKPEqual: '=',
}

// legacyKeypad writes a keypad key: SS3 x under DECKPAM when unmodified,
// otherwise the key it stands for (digit, operator, Enter).
func legacyKeypad(k Key, m vtgrid.Modes, o EncodeOptions) []byte {
	digit := k.Code >= KeyKP0 && k.Code <= KeyKP9
	if m.AppKeypad && k.Mod == 0 {
		if digit {
			return []byte{0x1b, 'O', byte('p' + k.Code - KeyKP0)}
		}
		return []byte{0x1b, 'O', keypadSS3[k.Code]}
	}
	eq := keypadText[k.Code]
	if digit {
		eq = '0' + k.Code - KeyKP0
	}
	return encodeLegacy(Key{Code: eq, Mod: k.Mod}, m, o)
}

// encodeModifyOther writes CSI 27;mods;code ~ for modified text and C0 keys
// and reports false where the legacy form applies. Level 1 keeps the keys
// with well-known legacy forms (Ctrl with a C0 mapping, Meta alone), as
// xterm and tmux do; level 2 extends them all. Shift+Tab stays CSI Z at
// both levels, because every program knows it.
func encodeModifyOther(k Key, level int) ([]byte, bool) {
	switch {
	case k.Mod == 0, k.Code.isPrivate():
		return nil, false
	case k.Code == KeyTab && k.Mod == ModShift:
		return nil, false
	case k.Code.isText() && k.Code != KeySpace && k.Mod == ModShift:
		return nil, false // the shifted character says it all
	case level < 2 && hasLegacyForm(k):
		return nil, false
	}
	code := rune(k.Code)
	if k.Mod&ModShift != 0 {
		code = unicode.ToUpper(code)
	}
	b := []byte("\x1b[27;")
	b = strconv.AppendInt(b, int64(k.Mod)+1, 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(code), 10)
	return append(b, '~'), true
}

// hasLegacyForm reports the modifyOtherKeys level-1 exceptions.
func hasLegacyForm(k Key) bool {
	if k.Mod == ModAlt {
		return true
	}
	if k.Mod&(ModAlt|ModCtrl|ModSuper) == ModCtrl {
		_, ok := ctrlByte(rune(k.Code))
		return ok
	}
	return false
}

// kittyFunctional is the kitty spec's table for keys with CSI forms. It is
// the legacy table except F3, which kitty sends as CSI 13~ because CSI R is
// also a cursor position report.
func kittyFunctional(c Code) (csiForm, bool) {
	if c == KeyF1+2 {
		return csiForm{13, '~', false}, true
	}
	f, ok := legacyFunctional[c]
	return f, ok
}

// encodeKitty writes a key under the kitty keyboard protocol with flags.
func encodeKitty(k Key, flags uint8) []byte {
	all := flags&KittyAllKeys != 0
	if f, ok := kittyFunctional(k.Code); ok {
		return csi(f, k.Mod) // DECCKM does not apply once flags are set
	}
	switch {
	case k.Code == KeyEnter, k.Code == KeyTab, k.Code == KeyBackspace:
		if k.Mod == 0 && !all {
			return []byte{byte(k.Code)} // so `reset` still works after a crash
		}
		return kittyU(int(k.Code), 0, k.Mod, 0)
	case k.Code == KeyEscape, k.Code.isKeypad():
		return kittyU(int(k.Code), 0, k.Mod, 0)
	}
	return kittyText(k, flags)
}

// kittyText writes a text key: plain UTF-8 when it types text and
// report-all is off, else CSI base[:shifted];mods[;text] u, with the
// un-shifted key as the code as the spec requires (Alt+A is 97 with Shift).
func kittyText(k Key, flags uint8) []byte {
	base, mods := rune(k.Code), k.Mod
	if lower := unicode.ToLower(base); lower != base {
		base, mods = lower, mods|ModShift
	}
	shifted := base
	if mods&ModShift != 0 {
		shifted = unicode.ToUpper(base)
	}
	typesText := mods&(ModCtrl|ModAlt|ModSuper) == 0
	if typesText && flags&KittyAllKeys == 0 {
		return utf8.AppendRune(nil, shifted)
	}
	var alt, text rune
	if flags&KittyAlternateKeys != 0 && shifted != base {
		alt = shifted
	}
	if typesText && flags&KittyAssociatedText != 0 {
		text = shifted
	}
	return kittyU(int(base), alt, mods, text)
}

// kittyU writes CSI code[:alt][;mods[;text]] u, omitting what is default.
func kittyU(code int, alt rune, mods Mod, text rune) []byte {
	b := strconv.AppendInt([]byte("\x1b["), int64(code), 10)
	if alt != 0 {
		b = strconv.AppendInt(append(b, ':'), int64(alt), 10)
	}
	if mods != 0 || text != 0 {
		b = append(b, ';')
		if mods != 0 {
			b = strconv.AppendInt(b, int64(mods)+1, 10)
		}
	}
	if text != 0 {
		b = strconv.AppendInt(append(b, ';'), int64(text), 10)
	}
	return append(b, 'u')
}
