// The client side of set-colors: telling the host the colours of the
// user's terminal (host/colors.go).

package client

import (
	"context"

	"clowder/supervisor/proto"
)

// SetColors tells the host the colours of the client's terminal; every
// pane answers its program's colour queries with them from then on. A host
// older than set-colors answers CodeUnknownType, which callers may ignore.
func (c *Client) SetColors(ctx context.Context, req proto.SetColorsReq) error {
	return callOK(ctx, c, req)
}
