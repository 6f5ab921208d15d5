package gpulayers

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

// lossBlock is the loss kernels' one block.
const lossBlock = 256

// CriticLoss computes agent/learn/losses.go's critic loss over b samples into out (3: loss = hard + w
// penalty, hard = MSE(r, qHard), penalty = MSE(stop_grad(qHard), qSoft)) and its gradients
// with respect to qHard and qSoft (b each).
func CriticLoss(dev cuda.Device, out, dqHard, dqSoft, qHard, qSoft, r cuda.Buf, b int, w float32) error {
	const op = "CriticLoss"
	if b <= 0 {
		return fmt.Errorf("%s: b = %d, want > 0", op, b)
	}
	bs, err := bufs(op, "out", out, 3, "dqHard", dqHard, b, "dqSoft", dqSoft, b, "qHard", qHard, b, "qSoft", qSoft, b, "r", r, b)
	if err != nil {
		return err
	}
	return dev.Launch("critic_loss", cuda.D1(1), cuda.D1(lossBlock), bs[0], bs[1], bs[2], bs[3], bs[4], bs[5], i32(b), w)
}

// ActorLoss computes agent/learn/losses.go's actor loss -mean q over b samples into out (1) and its
// gradient with respect to q (b).
func ActorLoss(dev cuda.Device, out, dq, q cuda.Buf, b int) error {
	const op = "ActorLoss"
	if b <= 0 {
		return fmt.Errorf("%s: b = %d, want > 0", op, b)
	}
	bs, err := bufs(op, "out", out, 1, "dq", dq, b, "q", q, b)
	if err != nil {
		return err
	}
	return dev.Launch("actor_loss", cuda.D1(1), cuda.D1(lossBlock), bs[0], bs[1], bs[2], i32(b))
}
