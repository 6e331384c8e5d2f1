// This file holds protocol v1 error replies: a stable code a program can
// branch on plus a one-line message for a person (docs/protocol.md,
// "Errors").

package proto

// ErrorCode is the machine-readable part of an ErrorReply. Codes are part of
// the protocol; a later minor may add codes, which an older client treats
// like CodeInternal.
type ErrorCode string

// The error codes of protocol v1.
const (
	CodeBadRequest   ErrorCode = "bad-request"       // malformed body or missing field
	CodeVersion      ErrorCode = "version"           // no common protocol version
	CodeUnknownType  ErrorCode = "unknown-type"      // a message type the host does not know
	CodeNotFound     ErrorCode = "not-found"         // no pane with that id or name
	CodeAmbiguous    ErrorCode = "ambiguous"         // a name matches several panes
	CodeConflict     ErrorCode = "conflict"          // name taken, or nonce reused with another spec
	CodeIdentity     ErrorCode = "identity-mismatch" // the process is not the one the client expected
	CodeTooLarge     ErrorCode = "too-large"         // frame or field over a limit
	CodeTimeout      ErrorCode = "timeout"           // a wait or operation ran out of time
	CodeBusy         ErrorCode = "busy"              // refused while panes run (host stop without force)
	CodeDenied       ErrorCode = "denied"            // peer not allowed (SO_PEERCRED uid differs)
	CodeUnsupported  ErrorCode = "unsupported"       // e.g. fd passing asked on a plain stream
	CodeExited       ErrorCode = "exited"            // the pane's process is gone
	CodeShuttingDown ErrorCode = "shutting-down"     // the host is stopping
	CodeDropped      ErrorCode = "dropped"           // a subscription the host ended: it fell too far behind
	CodeNotTaken     ErrorCode = "not-taken"         // a submission the program left in its prompt (submit --wait)
	CodeInternal     ErrorCode = "internal"          // a host bug; the message says what failed
)

// ErrorReply (MsgError) answers a request that failed. It is also a Go
// error, so a client returns it as is; Message is one line a user can act
// on ("no pane named \"api\"; see clowder ls").
type ErrorReply struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
}

// Error gives "host: MESSAGE (CODE)".
func (e *ErrorReply) Error() string {
	return "host: " + e.Message + " (" + string(e.Code) + ")"
}

// Is matches another *ErrorReply by code alone, so callers can write
// errors.Is(err, &ErrorReply{Code: CodeNotFound}).
func (e *ErrorReply) Is(target error) bool {
	t, ok := target.(*ErrorReply)
	return ok && t.Code == e.Code
}
