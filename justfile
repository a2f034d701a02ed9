# Sitelens developer tasks. `just run` starts the product; `just test` runs every test.
set shell := ["bash", "-euo", "pipefail", "-c"]

# wasm-pack finds wasm-opt (binaryen from npm, see README) on PATH.
export PATH := justfile_directory() + "/web/node_modules/.bin:" + env_var_or_default("HOME", "/root") + "/.cargo/bin:" + env_var("PATH")

# List the recipes.
default:
    @just --list

# Install what a fresh machine lacks (each step is skipped when already done): the wasm target,
# wasm-bindgen-cli at the crate's pinned version, wasm-pack, cargo-fuzz, the npm packages, PostgreSQL started
# when it is installed but stopped, moto's S3 server, aiosmtpd, localstripe, dnslib and schemathesis (PyPI, pinned) and Debian's Chromium (with strace and sqlite3) when running as root.
setup: web-deps
    #!/usr/bin/env bash
    set -euo pipefail
    rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
      || rustup target add wasm32-unknown-unknown
    pinned=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' Cargo.toml)
    if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $pinned"; then
      cargo install wasm-bindgen-cli --version "$pinned"
    fi
    command -v wasm-pack >/dev/null || cargo install wasm-pack --locked
    command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
    if command -v pg_isready >/dev/null && ! pg_isready -h 127.0.0.1 -p 5432 -q \
      && command -v pg_ctlcluster >/dev/null && [ "$(id -u)" = 0 ]; then
      pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    fi
    # moto's S3 server for the multi-node test, every package pinned, in .tools/moto (run as
    # `PYTHONPATH=.tools/moto python3 -S -m moto.server`, so no other Python package is seen);
    # reinstalled when scripts/requirements-moto.txt changes.
    moto=.tools/moto
    if ! cmp -s scripts/requirements-moto.txt "$moto/.requirements.txt"; then
      rm -rf "$moto"
      python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-warn-conflicts --no-deps --target "$moto" -r scripts/requirements-moto.txt
      cp scripts/requirements-moto.txt "$moto/.requirements.txt"
    fi
    # aiosmtpd, the SMTP server the account tests deliver to, the same way in .tools/aiosmtpd.
    smtpd=.tools/aiosmtpd
    if ! cmp -s scripts/requirements-aiosmtpd.txt "$smtpd/.requirements.txt"; then
      rm -rf "$smtpd"
      python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-warn-conflicts --no-deps --target "$smtpd" -r scripts/requirements-aiosmtpd.txt
      cp scripts/requirements-aiosmtpd.txt "$smtpd/.requirements.txt"
    fi
    # localstripe, the Stripe emulator the billing tests pay through, the same way in
    # .tools/localstripe (started by the tests bound to 127.0.0.1 only).
    stripe=.tools/localstripe
    if ! cmp -s scripts/requirements-localstripe.txt "$stripe/.requirements.txt"; then
      rm -rf "$stripe"
      python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-warn-conflicts --no-deps --target "$stripe" -r scripts/requirements-localstripe.txt
      cp scripts/requirements-localstripe.txt "$stripe/.requirements.txt"
    fi
    # dnslib, the DNS server the custom-domain tests check TXT records against
    # (scripts/dns-zone.py, bound to 127.0.0.1 only), the same way in .tools/dnslib.
    dns=.tools/dnslib
    if ! cmp -s scripts/requirements-dnslib.txt "$dns/.requirements.txt"; then
      rm -rf "$dns"
      python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-warn-conflicts --no-deps --target "$dns" -r scripts/requirements-dnslib.txt
      cp scripts/requirements-dnslib.txt "$dns/.requirements.txt"
    fi
    # schemathesis, run by `just schemathesis` against the API's OpenAPI document, the same way
    # in .tools/schemathesis.
    st=.tools/schemathesis
    if ! cmp -s scripts/requirements-schemathesis.txt "$st/.requirements.txt"; then
      rm -rf "$st"
      python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-warn-conflicts --no-deps --target "$st" -r scripts/requirements-schemathesis.txt
      cp scripts/requirements-schemathesis.txt "$st/.requirements.txt"
    fi
    # Debian's Chromium and fonts for measurements and e2e; strace for the hermetic-browser test;
    # sqlite3.
    missing=""
    command -v chromium >/dev/null || missing="chromium fonts-liberation"
    # Fonts for the scripts real pages are written in (Devanagari, Arabic, Thai, Hebrew, Chinese,
    # Japanese, Korean...): without them Chromium lays that text out in empty boxes or draws
    # nothing, in the measured page and in its screenshots.
    [ -n "$(fc-list :lang=hi 2>/dev/null)" ] || missing="$missing fonts-noto-core"
    [ -n "$(fc-list :lang=ja 2>/dev/null)" ] || missing="$missing fonts-noto-cjk"
    command -v strace >/dev/null || missing="$missing strace"
    # The e2e suite ages rows in its server's SQLite file (the affiliate path's refund window).
    command -v sqlite3 >/dev/null || missing="$missing sqlite3"
    if [ -n "$missing" ]; then
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
      else
        echo "note: install Debian's packages:$missing (apt-get install$missing); without Chromium" >&2
        echo "      analyses run over HTTP only and the browser and e2e tests cannot run" >&2
      fi
    fi

# Install the npm packages of the web app and the e2e suite when missing or the lock file changed.
web-deps:
    #!/usr/bin/env bash
    set -euo pipefail
    for dir in web e2e; do
      if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
        (cd "$dir" && npm ci --no-audit --no-fund)
      fi
    done

# Build the WebAssembly package of the domain rules into wasm-pkg/.
# Skipped when nothing it is built from changed since the last build (the stamp wasm-pkg/.built).
wasm: web-deps
    #!/usr/bin/env bash
    set -euo pipefail
    stamp=wasm-pkg/.built
    if [ -f "$stamp" ] && [ -z "$(find crates/domain crates/domain-wasm Cargo.toml Cargo.lock -newer "$stamp" -print -quit)" ]; then
      echo "wasm-pkg is up to date"
      exit 0
    fi
    wasm-pack --quiet build crates/domain-wasm --mode no-install --profile wasm-release --target bundler --scope sitelens --out-dir ../../wasm-pkg
    rm -f wasm-pkg/.gitignore
    touch "$stamp"

# Build the web app's production bundle into web/dist; skipped when nothing it is built from (the
# app, its packages, the wasm package, and the server's templates its stylesheet scans) changed
# since the last build (the stamp web/dist/.built).
web: wasm
    #!/usr/bin/env bash
    set -euo pipefail
    stamp=web/dist/.built
    inputs=(web wasm-pkg/.built crates/server/src/services/content crates/server/src/services/report_page.rs)
    if [ -f "$stamp" ] && [ -z "$(find "${inputs[@]}" \( -path web/node_modules -o -path web/dist \) -prune -o -newer "$stamp" -print -quit)" ]; then
      echo "web/dist is up to date"
      exit 0
    fi
    cd web
    npx tsc -b
    npx vite build
    # The embeddable audit widget, dist/widget.js (after the app, whose build empties dist).
    npx vite build -c vite.widget.config.ts
    touch dist/.built

# Rewrite the generated TypeScript contract after changing a contract type.
bindings:
    UPDATE_BINDINGS=1 cargo test -p domain --lib bindings

# Build what is needed and start the product (web app, API and worker) on http://127.0.0.1:8080.
run: setup web
    cargo build --release -p server --locked
    ./target/release/sitelens serve

# Format the code.
fmt:
    cargo fmt --all
    cd web && npx eslint --fix .

# Document citations (scripts/check-doc-refs.mjs), clippy with warnings denied, rustfmt check, eslint and tsc.
lint: wasm
    node --test scripts/check-doc-refs.test.mjs && node scripts/check-doc-refs.mjs
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets --locked -- -D warnings
    cargo clippy -p domain-wasm --target wasm32-unknown-unknown --locked -- -D warnings
    cd web && npx tsc -b && npx eslint --max-warnings 0 .
    cd e2e && ../web/node_modules/.bin/tsc -p .

# Every test of the project: lint, Rust (SQLite and PostgreSQL), shared vectors natively and in wasm, web unit tests, the API against its OpenAPI document, fuzzing, e2e.
test: setup lint && schemathesis fuzz e2e
    cargo test --workspace --locked
    cd web && npx vitest run

# schemathesis against a real `sitelens serve` on 127.0.0.1 (fresh SQLite, no worker): every
# operation of /api/v1/openapi.json with `examples` generated inputs each (at most 100 s in all);
# any 5xx, or a status, header, content type or body the document does not allow, fails.
schemathesis examples="10":
    cargo build -p server --locked
    python3 scripts/schemathesis.py "${CARGO_TARGET_DIR:-target}/debug/sitelens" .tools/schemathesis {{examples}}

# Fuzz the analyzer's parsers (HTML, CSS, robots.txt, sitemap, URLs) for `seconds` each; any panic or hang fails.
fuzz seconds="30":
    #!/usr/bin/env bash
    set -euo pipefail
    # From the seeds in fuzz/corpus; a panic, a hang (10 s on one input) or 2 GB of memory fails.
    # cargo-fuzz passes nightly-only flags (sanitizer coverage) to rustc; there is no nightly
    # here, so RUSTC_BOOTSTRAP=1 lets the stable compiler accept them. No sanitizer: the code is
    # safe Rust and the targets look for panics and hangs, which need none (the build stays short).
    cd fuzz
    export RUSTC_BOOTSTRAP=1
    cargo fetch --locked --quiet
    cargo fuzz build --sanitizer none --debug-assertions
    bin=target/x86_64-unknown-linux-gnu/release
    for t in html css robots sitemap url; do
      mkdir -p "target/corpus/$t" target/artifacts
      log="target/fuzz-$t.log"
      if ! "$bin/$t" "target/corpus/$t" "corpus/$t" -max_total_time={{seconds}} -timeout=10 \
          -rss_limit_mb=2048 -artifact_prefix="target/artifacts/$t-" -print_final_stats=1 2>"$log"; then
        tail -40 "$log" >&2
        echo "fuzz $t: failed; the input is in fuzz/target/artifacts (replay: fuzz/$bin/$t <file>)" >&2
        exit 1
      fi
      runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
      echo "fuzz $t: $runs inputs in {{seconds}} s, no panic and no hang"
    done

# End-to-end tests: the built web app and the real server in Debian's Chromium (screenshots in e2e/test-results).
e2e: web
    cargo build -p server --locked
    cd e2e && npx playwright test

# Benchmarks: print figures (domain rules, wasm size, API load on SQLite and PostgreSQL, the queue
# under load: 200 analyses against 2 worker processes, HTTP only then with Chromium); with a
# corpus folder (`just bench /path/to/corpus`), also Sitelens next to Lighthouse on its pages
# (Lighthouse three times a page, compared through its median run).
bench corpus="": wasm
    cargo bench -p domain --bench domain -- --noplot
    @just wasm-size
    cargo bench -p store --bench store -- --noplot
    cargo bench -p analyzer --bench analyzer
    cargo bench -p analyzer --bench browser
    cargo bench -p server --bench load
    cargo bench -p server --bench api
    cargo bench -p server --bench signin
    cargo bench -p server --bench paid
    cargo bench -p server --bench payments
    cargo bench -p server --bench pdf
    cargo bench -p server --bench queue
    SITELENS_BENCH_BROWSER=1 cargo bench -p server --bench queue
    cd web && node scripts/budget.mjs
    cd e2e && node lighthouse.mjs
    if [ -n "{{corpus}}" ]; then just bench-corpus "{{corpus}}" --lighthouse-runs 3; fi

# Sitelens next to Lighthouse 12.8.2 on a corpus of real pages kept outside the repository (see
# e2e/corpus.mjs), inside a network namespace that has only loopback: nothing leaves the machine.
bench-corpus corpus *args: web
    #!/usr/bin/env bash
    set -euo pipefail
    cargo build --release -p server --locked
    # Lighthouse comes from npm, before the namespace cuts the network off.
    lighthouse=$(npx --yes -p lighthouse@12.8.2 -c 'command -v lighthouse')
    corpus=$(realpath "{{corpus}}")
    cd e2e
    unshare --net -- bash -c 'ip link set lo up && LIGHTHOUSE_BIN="$1" SITELENS_BIN="$2" exec node corpus.mjs "${@:3}"' \
      _ "$lighthouse" "{{justfile_directory()}}/target/release/sitelens" "$corpus" {{args}}

# Print the wasm package size, raw and gzipped (goal: at most 150 KB gzipped).
wasm-size:
    #!/usr/bin/env bash
    set -euo pipefail
    f=$(ls wasm-pkg/*_bg.wasm)
    raw=$(stat -c %s "$f"); gz=$(gzip -9c "$f" | wc -c)
    awk -v r="$raw" -v g="$gz" 'BEGIN { printf "wasm package: %d bytes raw (%.1f KB), %d bytes gzipped (%.1f KB)\n", r, r/1024, g, g/1024 }'
