package vtgrid

// This file is the DEC/ECMA-48 parser: the state machine of Paul Williams'
// "A parser for DEC's ANSI-compatible video terminals", driven by a table of
// (action, next state) per state and byte. It never allocates per byte: CSI
// parameters live in a fixed array, OSC and DCS payloads in a bounded buffer.
// Bytes >= 0x80 in the ground state are UTF-8 (decoded in terminal.go); in
// string states they are payload, elsewhere they are ignored.

import "sync"

type pState uint8

const (
	sGround pState = iota
	sEscape
	sEscInter
	sCSIEntry
	sCSIParam
	sCSIInter
	sCSIIgnore
	sDCSEntry
	sDCSParam
	sDCSInter
	sDCSPass
	sDCSIgnore
	sOSC
	sSOS // SOS, PM and APC strings: consumed and dropped
	nStates
)

type pAction uint8

const (
	aNone pAction = iota
	aIgnore
	aPrint
	aExecute
	aClear
	aCollect
	aParam
	aEscDispatch
	aCSIDispatch
	aHook
	aPut
	aUnhook
	aOSCStart
	aOSCPut
	aOSCEnd
)

// transition packs an action (low nibble) and next state (high nibble).
type transition uint8

func (t transition) action() pAction { return pAction(t & 0x0f) }
func (t transition) next() pState    { return pState(t >> 4) }

// parseTable is [state][byte] → transition for bytes 0x00-0x9f; bytes at and
// above 0xa0 behave like their GL counterpart in string states and are
// otherwise handled before the table (see Terminal.step). New builds it
// (initParseTable), not the package's init: every process of the binary,
// each CLI command included, paid for it (bench/profiles/cli.md).
var (
	parseTable     [nStates][256]transition
	parseTableOnce sync.Once
)

// initParseTable builds parseTable once; every Terminal is made by New,
// which calls it before the table is read.
func initParseTable() { parseTableOnce.Do(func() { parseTable = buildParseTable() }) }

func buildParseTable() (t [nStates][256]transition) {
	set := func(s pState, lo, hi byte, a pAction, n pState) {
		for b := int(lo); b <= int(hi); b++ {
			t[s][b] = transition(a) | transition(n)<<4
		}
	}
	for s := pState(0); s < nStates; s++ {
		// Stay in the state unless told otherwise.
		set(s, 0x00, 0xff, aNone, s)
		// "Anywhere" transitions.
		set(s, 0x18, 0x18, aExecute, sGround)
		set(s, 0x1a, 0x1a, aExecute, sGround)
		set(s, 0x1b, 0x1b, aClear, sEscape)
	}
	buildGround(set)
	buildEscape(set)
	buildCSI(set)
	buildDCS(set)
	buildStrings(set)
	return t
}

type setFunc func(s pState, lo, hi byte, a pAction, n pState)

// executeC0 makes C0 controls (except CAN, SUB, ESC) execute in state s.
func executeC0(set setFunc, s pState) {
	set(s, 0x00, 0x17, aExecute, s)
	set(s, 0x19, 0x19, aExecute, s)
	set(s, 0x1c, 0x1f, aExecute, s)
}

func buildGround(set setFunc) {
	executeC0(set, sGround)
	set(sGround, 0x20, 0x7e, aPrint, sGround)
	set(sGround, 0x7f, 0x7f, aIgnore, sGround)
	set(sGround, 0x80, 0xff, aPrint, sGround)
}

func buildEscape(set setFunc) {
	executeC0(set, sEscape)
	set(sEscape, 0x7f, 0x7f, aIgnore, sEscape)
	set(sEscape, 0x20, 0x2f, aCollect, sEscInter)
	set(sEscape, 0x30, 0x7e, aEscDispatch, sGround)
	set(sEscape, 0x5b, 0x5b, aClear, sCSIEntry) // [
	set(sEscape, 0x5d, 0x5d, aOSCStart, sOSC)   // ]
	set(sEscape, 0x50, 0x50, aClear, sDCSEntry) // P
	set(sEscape, 0x58, 0x58, aNone, sSOS)       // X
	set(sEscape, 0x5e, 0x5f, aNone, sSOS)       // ^ _
	set(sEscape, 0x80, 0xff, aIgnore, sEscape)

	executeC0(set, sEscInter)
	set(sEscInter, 0x20, 0x2f, aCollect, sEscInter)
	set(sEscInter, 0x30, 0x7e, aEscDispatch, sGround)
	set(sEscInter, 0x7f, 0xff, aIgnore, sEscInter)
}

func buildCSI(set setFunc) {
	executeC0(set, sCSIEntry)
	set(sCSIEntry, 0x7f, 0xff, aIgnore, sCSIEntry)
	set(sCSIEntry, 0x20, 0x2f, aCollect, sCSIInter)
	set(sCSIEntry, 0x30, 0x3b, aParam, sCSIParam)
	set(sCSIEntry, 0x3c, 0x3f, aCollect, sCSIParam) // private markers < = > ?
	set(sCSIEntry, 0x40, 0x7e, aCSIDispatch, sGround)

	executeC0(set, sCSIParam)
	set(sCSIParam, 0x7f, 0xff, aIgnore, sCSIParam)
	set(sCSIParam, 0x30, 0x3b, aParam, sCSIParam)
	set(sCSIParam, 0x3c, 0x3f, aNone, sCSIIgnore)
	set(sCSIParam, 0x20, 0x2f, aCollect, sCSIInter)
	set(sCSIParam, 0x40, 0x7e, aCSIDispatch, sGround)

	executeC0(set, sCSIInter)
	set(sCSIInter, 0x7f, 0xff, aIgnore, sCSIInter)
	set(sCSIInter, 0x20, 0x2f, aCollect, sCSIInter)
	set(sCSIInter, 0x30, 0x3f, aNone, sCSIIgnore)
	set(sCSIInter, 0x40, 0x7e, aCSIDispatch, sGround)

	executeC0(set, sCSIIgnore)
	set(sCSIIgnore, 0x20, 0x3f, aIgnore, sCSIIgnore)
	set(sCSIIgnore, 0x7f, 0xff, aIgnore, sCSIIgnore)
	set(sCSIIgnore, 0x40, 0x7e, aNone, sGround)
}

func buildDCS(set setFunc) {
	for _, s := range []pState{sDCSEntry, sDCSParam, sDCSInter, sDCSIgnore} {
		set(s, 0x00, 0x17, aIgnore, s)
		set(s, 0x19, 0x19, aIgnore, s)
		set(s, 0x1c, 0x1f, aIgnore, s)
		set(s, 0x7f, 0xff, aIgnore, s)
	}
	set(sDCSEntry, 0x20, 0x2f, aCollect, sDCSInter)
	set(sDCSEntry, 0x30, 0x3b, aParam, sDCSParam)
	set(sDCSEntry, 0x3c, 0x3f, aCollect, sDCSParam)
	set(sDCSEntry, 0x40, 0x7e, aHook, sDCSPass)

	set(sDCSParam, 0x30, 0x3b, aParam, sDCSParam)
	set(sDCSParam, 0x3c, 0x3f, aNone, sDCSIgnore)
	set(sDCSParam, 0x20, 0x2f, aCollect, sDCSInter)
	set(sDCSParam, 0x40, 0x7e, aHook, sDCSPass)

	set(sDCSInter, 0x20, 0x2f, aCollect, sDCSInter)
	set(sDCSInter, 0x30, 0x3f, aNone, sDCSIgnore)
	set(sDCSInter, 0x40, 0x7e, aHook, sDCSPass)

	set(sDCSIgnore, 0x20, 0x7e, aIgnore, sDCSIgnore)

	set(sDCSPass, 0x00, 0x17, aPut, sDCSPass)
	set(sDCSPass, 0x19, 0x19, aPut, sDCSPass)
	set(sDCSPass, 0x1c, 0x1f, aPut, sDCSPass)
	set(sDCSPass, 0x20, 0x7e, aPut, sDCSPass)
	set(sDCSPass, 0x7f, 0x7f, aIgnore, sDCSPass)
	set(sDCSPass, 0x80, 0xff, aPut, sDCSPass)
	// ESC inside a DCS string ends it (ESC \ is ST); hook/unhook run on exit.
	set(sDCSPass, 0x1b, 0x1b, aUnhook, sEscape)
	set(sDCSPass, 0x18, 0x18, aUnhook, sGround)
	set(sDCSPass, 0x1a, 0x1a, aUnhook, sGround)
}

func buildStrings(set setFunc) {
	set(sOSC, 0x00, 0x17, aIgnore, sOSC)
	set(sOSC, 0x19, 0x19, aIgnore, sOSC)
	set(sOSC, 0x1c, 0x1f, aIgnore, sOSC)
	set(sOSC, 0x07, 0x07, aOSCEnd, sGround) // BEL terminates OSC (xterm)
	set(sOSC, 0x20, 0xff, aOSCPut, sOSC)
	set(sOSC, 0x1b, 0x1b, aOSCEnd, sEscape)
	set(sOSC, 0x18, 0x18, aOSCEnd, sGround)
	set(sOSC, 0x1a, 0x1a, aOSCEnd, sGround)

	set(sSOS, 0x00, 0x17, aIgnore, sSOS)
	set(sSOS, 0x19, 0x19, aIgnore, sSOS)
	set(sSOS, 0x1c, 0x1f, aIgnore, sSOS)
	set(sSOS, 0x20, 0xff, aIgnore, sSOS)
}

// maxParams bounds CSI parameters (sub-parameters count too); extra ones are
// dropped, as xterm does.
const maxParams = 32

// maxParamValue clamps huge parameters so arithmetic never overflows.
const maxParamValue = 65535

// maxStringLen bounds OSC and DCS payloads; longer ones are truncated (an OSC
// 52 clipboard payload of 1 MiB is the largest real use).
const maxStringLen = 1 << 20

// params holds CSI/DCS parameters. sub[i] marks parameter i as a colon
// sub-parameter of the one before it.
type params struct {
	v     [maxParams]int32
	sub   [maxParams]bool
	n     int  // number of parameters seen so far (the current one included)
	has   bool // a digit or separator was seen
	inter [2]byte
	nint  int
	priv  byte // private marker < = > ? or 0
}

func (p *params) clear() {
	p.n, p.has, p.nint, p.priv = 0, false, 0, 0
	p.v[0], p.sub[0] = 0, false
}

// param consumes a digit, ';' or ':'.
func (p *params) param(b byte) {
	if p.n == 0 {
		p.n = 1
		p.v[0], p.sub[0] = 0, false
	}
	p.has = true
	switch b {
	case ';', ':':
		if p.n < maxParams {
			p.v[p.n], p.sub[p.n] = 0, b == ':'
		}
		p.n++
	default:
		if i := p.n - 1; i < maxParams {
			v := p.v[i]*10 + int32(b-'0')
			if v > maxParamValue {
				v = maxParamValue
			}
			p.v[i] = v
		}
	}
}

func (p *params) collect(b byte) {
	if b >= 0x3c && b <= 0x3f && p.n == 0 && p.nint == 0 {
		p.priv = b
		return
	}
	if p.nint < len(p.inter) {
		p.inter[p.nint] = b
	}
	p.nint++
}

// count is the number of parameters, capped at maxParams.
func (p *params) count() int { return min(p.n, maxParams) }

// get returns parameter i, or def when it is absent or zero.
func (p *params) get(i int, def int) int {
	if i >= p.count() || p.v[i] == 0 {
		return def
	}
	return int(p.v[i])
}

// raw returns parameter i as written (0 when absent).
func (p *params) raw(i int) int {
	if i >= p.count() {
		return 0
	}
	return int(p.v[i])
}

// intermediate is the single intermediate byte, or 0 (none or more than one).
func (p *params) intermediate() byte {
	if p.nint != 1 {
		return 0
	}
	return p.inter[0]
}
