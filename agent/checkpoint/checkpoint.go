package checkpoint

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"

	"spg-tui/agent/replay"
	"spg-tui/run"
	"spg-tui/sysmem"
)

// A checkpoint file is the magic string followed by three sections: a JSON header, the
// learner's MarshalBinary bytes and the replay buffer (empty in checkpoints/best). Each section
// is its length (uint64, little endian), its bytes and their CRC-32C, so a damaged file is
// refused rather than half-loaded.
const fileMagic = "SPGCKPT1"

// maxHeaderLen bounds the JSON header read from a file, against a corrupt length.
const maxHeaderLen = 1 << 24

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Header is the JSON head of a checkpoint: the run's state besides the learner and
// the buffer.
type Header struct {
	// Config is the configuration in force, live changes included.
	Config run.Config `json:"config"`
	// Step is the number of training steps completed.
	Step int `json:"step"`
	// Wall is the training time in seconds so far.
	Wall float64 `json:"wall"`
	// RNG is the state of the generator behind exploration and minibatch sampling.
	RNG []byte `json:"rng,omitempty"`
	// Best is the best validation evaluation so far.
	Best *BestEval `json:"best,omitempty"`
	// LastEval is the step of the latest validation evaluation (-1 if none).
	LastEval int `json:"last_eval"`
	// Interval holds the sums of the logging interval in progress.
	Interval Interval `json:"interval"`
	// ReplayOmitted marks an early checkpoints/last written without the replay buffer (see
	// checkpointEarly): a resume starts with an empty buffer, which the next steps refill.
	ReplayOmitted bool `json:"replay_omitted,omitempty"`
	// RunID is the identity of the run that wrote the checkpoint: RunID of Start.
	RunID string `json:"run_id,omitempty"`
	// Start is the configuration the run started with (its config.json), so that a resume can
	// check the directory's config.json against it, or restore a deleted one.
	Start *run.Config `json:"start,omitempty"`
}

// BestEval identifies the best validation evaluation.
type BestEval struct {
	Step   int     `json:"step"`
	Metric float64 `json:"metric"`
}

// Write writes a checkpoint to path atomically: on any error, the file already there
// stays as it was. replay may be nil.
func Write(path string, h *Header, learner []byte, replay *replay.Buffer) error {
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return run.WriteAtomic(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, fileMagic); err != nil {
			return err
		}
		if err := writeSection(w, int64(len(head)), bytesWriter(head)); err != nil {
			return err
		}
		if err := writeSection(w, int64(len(learner)), bytesWriter(learner)); err != nil {
			return err
		}
		if replay == nil {
			return writeSection(w, 0, bytesWriter(nil))
		}
		return writeSection(w, replay.EncodedLen(), func(w io.Writer) error {
			_, err := replay.WriteTo(w)
			return err
		})
	})
}

func bytesWriter(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}

// writeSection writes one section of length bytes, produced by fn.
func writeSection(w io.Writer, length int64, fn func(io.Writer) error) error {
	var head [8]byte
	binary.LittleEndian.PutUint64(head[:], uint64(length))
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	h := crc32.New(crcTable)
	cw := &countingWriter{w: io.MultiWriter(w, h)}
	if err := fn(cw); err != nil {
		return err
	}
	if cw.n != length {
		return fmt.Errorf("checkpoint section: wrote %d bytes, announced %d", cw.n, length)
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], h.Sum32())
	_, err := w.Write(sum[:])
	return err
}

// readSection reads one section, handing fn a reader of exactly its bytes, which fn must
// consume whole; the CRC is checked after fn returns.
func readSection(r io.Reader, maxLen int64, fn func(r io.Reader, length int64) error) error {
	var head [8]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return truncated(err)
	}
	length := int64(binary.LittleEndian.Uint64(head[:]))
	if length < 0 || length > maxLen {
		return fmt.Errorf("corrupt section length %d", length)
	}
	h := crc32.New(crcTable)
	lr := &io.LimitedReader{R: r, N: length}
	if err := fn(io.TeeReader(lr, h), length); err != nil {
		return err
	}
	if lr.N != 0 {
		return errors.New("section not consumed whole")
	}
	var sum [4]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return truncated(err)
	}
	if binary.LittleEndian.Uint32(sum[:]) != h.Sum32() {
		return errors.New("checksum mismatch (the file is damaged)")
	}
	return nil
}

func truncated(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("file is truncated")
	}
	return err
}

// File is an open checkpoint whose header and learner bytes have been read.
type File struct {
	Path    string
	f       *os.File
	r       *bufio.Reader
	Header  Header
	Learner []byte
}

// Open opens the checkpoint at path and reads its header and learner sections.
func Open(path string) (*File, error) {
	// Its sections are bounded by the file's size as they are read (readSection).
	f, err := run.OpenRegular(path, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	c := &File{Path: path, f: f, r: bufio.NewReaderSize(f, 1<<20)}
	if err := c.readHead(); err != nil {
		f.Close()
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return c, nil
}

func (c *File) readHead() error {
	magic := make([]byte, len(fileMagic))
	if _, err := io.ReadFull(c.r, magic); err != nil || string(magic) != fileMagic {
		return errors.New("not an spg-tui checkpoint")
	}
	err := readSection(c.r, maxHeaderLen, func(r io.Reader, _ int64) error {
		dec := json.NewDecoder(r)
		if err := dec.Decode(&c.Header); err != nil {
			return fmt.Errorf("header: %v", err)
		}
		_, err := io.Copy(io.Discard, dec.Buffered())
		if err == nil {
			_, err = io.Copy(io.Discard, r)
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := c.Header.Config.Validate(); err != nil {
		return fmt.Errorf("header: %v", err)
	}
	fi, err := c.f.Stat()
	if err != nil {
		return err
	}
	return readSection(c.r, fi.Size(), func(r io.Reader, length int64) error {
		// A length within a sparse file can still be more than memory: refuse it, not crash.
		if err := sysmem.Check("its learner section", length); err != nil {
			return err
		}
		c.Learner = make([]byte, length)
		_, err := io.ReadFull(r, c.Learner)
		return truncated(err)
	})
}

// ReadReplay restores the replay section into r; it fails if the checkpoint holds no buffer.
func (c *File) ReadReplay(replay *replay.Buffer) error {
	fi, err := c.f.Stat()
	if err != nil {
		return err
	}
	err = readSection(c.r, fi.Size(), func(r io.Reader, length int64) error {
		if length == 0 {
			return errors.New("holds no replay buffer (a best checkpoint cannot be resumed)")
		}
		if _, err := replay.ReadFrom(r); err != nil {
			return truncated(err)
		}
		// ReadFrom buffers ahead, but only within the section's limit.
		_, err := io.Copy(io.Discard, r)
		return err
	})
	if err != nil {
		return fmt.Errorf("checkpoint %s: %v", c.Path, err)
	}
	return nil
}

// Close closes the file.
func (c *File) Close() error { return c.f.Close() }

// countingWriter counts the bytes written through it, to check a section's announced length.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n += int64(k)
	return k, err
}
