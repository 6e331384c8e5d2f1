// Package proto is protocol v1 (docs/protocol.md): the message types, their
// codec, framing, the handshake, request validation, and fd passing.
//
// It is transport-agnostic: a FrameConn works over any io.ReadWriter
// (StreamConn); passing fds is an optional capability of a unix connection
// (FdConn), which a peer discovers through FrameConn.CarriesFds, never by
// asserting a concrete type. Over a stream without fd passing everything but
// direct master input works. It imports neither host nor client.
package proto
