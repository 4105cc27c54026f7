package wasmgen

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
)

func TestModuleRuns(t *testing.T) {
	ctx := context.Background()
	m := New()
	m.Memory(1, 2)
	m.ExportMemory("memory")
	m.Data(8, []byte("hi"))
	f := m.Func(Signature{Params: []ValType{I32}, Results: []ValType{I32}}, []ValType{I64},
		NewBody().LocalGet(0).I32Const(-70000).I32Add().I64Const(1<<40).LocalSet(1))
	m.ExportFunc("f", f)

	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	mod, err := rt.Instantiate(ctx, m.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	res, err := mod.ExportedFunction("f").Call(ctx, 70042)
	if err != nil {
		t.Fatal(err)
	}
	if int32(res[0]) != 42 {
		t.Fatalf("f(70042) = %d, want 42", int32(res[0]))
	}
	if b, ok := mod.Memory().Read(8, 2); !ok || string(b) != "hi" {
		t.Fatalf("data segment: %q %v", b, ok)
	}
}
