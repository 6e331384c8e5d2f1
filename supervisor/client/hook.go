// The client side of hook: what `clowder hook` tells the host when an
// agent's hook fires in a pane (host/hook.go).

package client

import (
	"context"

	"clowder/supervisor/proto"
)

// Hook reports an agent hook's event (and the conversation id it carries)
// for the pane it runs in. A host older than hook answers
// CodeUnknownType.
func (c *Client) Hook(ctx context.Context, req proto.HookReq) error {
	return callOK(ctx, c, req)
}
