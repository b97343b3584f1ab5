// Command ferretdb runs FerretDB v1 (a MongoDB wire-protocol server) for
// local runs and tests, on its PostgreSQL backend (the default in
// tools/infra/up.sh) or its SQLite backend. It embeds the library package
// because `go install .../cmd/ferretdb` panics over a missing version.txt.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	handler := flag.String("handler", "sqlite", "backend: postgresql or sqlite")
	postgresURL := flag.String("postgresql-url", "", "PostgreSQL URL for -handler postgresql")
	dataDir := flag.String("data", "./.data/ferretdb", "directory for the SQLite files (-handler sqlite)")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()

	if *handler == "sqlite" {
		if err := os.MkdirAll(*dataDir, 0o755); err != nil {
			fmt.Fprintf(os.Stderr, "ferretdb: cannot create data directory %s: %v\n", *dataDir, err)
			os.Exit(1)
		}
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: bad -log-level %q\n", *logLevel)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: *listen},
		Logger:        logger,
		Handler:       *handler,
		SQLiteURL:     "file:" + *dataDir + "/",
		PostgreSQLURL: *postgresURL,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %v\n", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Fprintf(os.Stderr, "ferretdb: listening on %s (%s)\n", *listen, f.MongoDBURI())
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %v\n", err)
		os.Exit(1)
	}
}
