package envs

import (
	"encoding/json"
	"io"
)

// FileWriter writes an instance file one instance at a time, byte for byte as WriteFile writes
// the whole File, so that a file of any length is written in constant memory.
type FileWriter struct {
	w     io.Writer
	count int
}

// NewFileWriter writes the head of an instance file of task at size n to w.
func NewFileWriter(w io.Writer, task Task, n int) (*FileWriter, error) {
	head, err := json.Marshal(struct {
		Task Task `json:"task"`
		N    int  `json:"n"`
	}{task, n})
	if err != nil {
		return nil, err
	}
	// {"task":..,"n":..} becomes {"task":..,"n":..,"instances":[
	head = append(head[:len(head)-1], `,"instances":[`...)
	if _, err := w.Write(head); err != nil {
		return nil, err
	}
	return &FileWriter{w: w}, nil
}

// Write appends one instance.
func (fw *FileWriter) Write(inst Instance) error {
	data, err := json.Marshal(inst)
	if err != nil {
		return err
	}
	if fw.count > 0 {
		data = append([]byte{','}, data...)
	}
	fw.count++
	_, err = fw.w.Write(data)
	return err
}

// Close ends the file (it does not close the underlying writer).
func (fw *FileWriter) Close() error {
	_, err := io.WriteString(fw.w, "]}\n")
	return err
}
