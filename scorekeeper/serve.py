"""Start the app on a real WSGI server (waitress), reachable from other tablets."""

from __future__ import annotations

import argparse
import os
import threading

from waitress import serve

from . import create_app
from .netinfo import join_urls


def main(argv: list[str] | None = None) -> None:
    """`scorekeeper [--host 0.0.0.0] [--port 5000]`: serve and print the join addresses."""
    parser = argparse.ArgumentParser(description="Mexican Train Scorekeeper server")
    parser.add_argument("--host", default=os.environ.get("SCOREKEEPER_HOST", "0.0.0.0"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("SCOREKEEPER_PORT", 5000)))
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args(argv)
    app = create_app()
    app.config["SERVER_PORT"] = args.port
    print("Mexican Train Scorekeeper is running.")
    print(f"  Database: {app.config['DATABASE']}")
    print(f"  On this machine: http://127.0.0.1:{args.port}/")
    if args.host in ("0.0.0.0", "::"):
        urls = join_urls(args.port)
        for url in urls:
            print(f"  Other tablets:   {url}")
        if not urls:
            print("  (No network address found: connect this machine to the network.)")
    print("Press Ctrl+C to stop.", flush=True)
    threading.Thread(target=_warm_pdf_fonts, args=(app,), daemon=True).start()
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="scorekeeper")


def _warm_pdf_fonts(app) -> None:
    """Register the PDF fonts now, so the first scoresheet does not wait for them."""
    from .pdf import FontsMissing, fonts
    try:
        fonts(app.config.get("PDF_FONT_DIR"))
    except FontsMissing as missing:
        print(f"Warning: {missing}", flush=True)


if __name__ == "__main__":
    main()
