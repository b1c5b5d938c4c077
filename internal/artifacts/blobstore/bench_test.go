package blobstore_test

import (
	"crypto/rand"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
)

// benchBackends opens each kind of store for a benchmark; S3 skips unless
// AGENTSVC_TEST_S3 is set.
var benchBackends = []struct {
	name string
	open func(b *testing.B) *blobstore.Store
}{
	{"memory", func(b *testing.B) *blobstore.Store { return openStore(b, "memory://") }},
	{"file", func(b *testing.B) *blobstore.Store { return openStore(b, "file://"+b.TempDir()) }},
	{"s3", func(b *testing.B) *blobstore.Store { return openStore(b, s3Prefix(b)) }},
}

// megabytePart returns a 1 MiB inline-data artifact of random bytes.
func megabytePart(b *testing.B) *v1.Part {
	data := make([]byte, 1<<20)
	if _, err := rand.Read(data); err != nil {
		b.Fatal(err)
	}
	return &v1.Part{InlineData: &v1.Blob{MimeType: "application/octet-stream", Data: data}}
}

var benchKey = artifacts.Key{AppName: "app", UserID: "u", SessionID: "s", Filename: "report.bin"}

// BenchmarkSave1MiB measures saving a 1 MiB artifact as its first version:
// the listing of its versions and the conditional write. The artifact is
// deleted between iterations, off the clock.
func BenchmarkSave1MiB(b *testing.B) {
	for _, be := range benchBackends {
		b.Run(be.name, func(b *testing.B) {
			svc := be.open(b)
			part := megabytePart(b)
			b.SetBytes(1 << 20)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := svc.Save(b.Context(), benchKey, part, nil); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if err := svc.Delete(b.Context(), benchKey); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}

// BenchmarkLoadLatest1MiB measures loading the latest version of a 1 MiB
// artifact: the listing of its versions, its attributes and its body.
func BenchmarkLoadLatest1MiB(b *testing.B) {
	for _, be := range benchBackends {
		b.Run(be.name, func(b *testing.B) {
			svc := be.open(b)
			if _, err := svc.Save(b.Context(), benchKey, megabytePart(b), nil); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(1 << 20)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := svc.Load(b.Context(), benchKey, artifacts.Latest); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
