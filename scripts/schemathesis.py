#!/usr/bin/env python3
"""Runs schemathesis against a real `sitelens serve` on 127.0.0.1 (run by `just schemathesis`).

The server gets a fresh SQLite database in a temporary folder and no worker (a queued analysis
stays queued, so nothing reaches out to the addresses schemathesis makes up). A test account is
signed up through the API, given the enterprise plan with `sitelens set-plan` (its reports are
covered, so submissions are accepted rather than all refused with 402), a rate limit the run
cannot reach with `sitelens set-api-rate-limit`, and an API key created through the dashboard's
route. schemathesis then reads /api/v1/openapi.json and checks every
operation: no 5xx, every answer's status and body as the document says.

Usage: schemathesis.py SITELENS_BINARY SCHEMATHESIS_FOLDER [MAX_EXAMPLES]
Only the standard library: the script itself runs on any Python 3.
"""

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

EMAIL = "schemathesis@example.com"
PASSWORD = "correct horse battery"
# schemathesis sends a few hundred requests a minute; the per-key limit (100 a minute) is tested
# by the server's own tests, so this account's keys get a limit the run cannot reach.
RATE_LIMIT = 1_000_000


def start_server(binary, folder):
    env = dict(
        os.environ,
        SITELENS_BIND="127.0.0.1:0",
        SITELENS_DATABASE_URL=f"sqlite://{folder}/db.sqlite?mode=rwc",
        SITELENS_DATA_DIR=f"{folder}/data",
        SITELENS_WEB_DIR=f"{folder}/web",
        SITELENS_CHROMIUM="off",
        RUST_LOG="warn",
    )
    os.makedirs(f"{folder}/web", exist_ok=True)
    server = subprocess.Popen(
        [binary, "serve", "--no-worker"], env=env, stdout=subprocess.PIPE, text=True
    )
    for line in server.stdout:
        found = re.search(r"running on (http://\S+)", line)
        if found:
            return server, found.group(1).rstrip("/"), env
    server.wait()
    sys.exit(f"sitelens exited with code {server.returncode} before it was ready")


def call(opener, method, url, body, headers=None):
    request = urllib.request.Request(
        url,
        method=method,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with opener.open(request) as answer:
        return json.load(answer)


def api_key(base, binary, env):
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    account = call(
        opener,
        "POST",
        f"{base}/api/accounts/sign-up",
        {
            "firstName": "Schema",
            "lastName": "Thesis",
            "email": EMAIL,
            "username": "schemathesis",
            "password": PASSWORD,
        },
    )["account"]
    subprocess.run([binary, "set-plan", EMAIL, "enterprise"], env=env, check=True)
    subprocess.run(
        [binary, "set-api-rate-limit", EMAIL, str(RATE_LIMIT)], env=env, check=True
    )
    created = call(
        opener,
        "POST",
        f"{base}/api/account/api-keys",
        {"name": "schemathesis"},
        {"X-CSRF-Token": account["csrfToken"]},
    )
    return created["secret"]


def main():
    binary, tools = sys.argv[1], sys.argv[2]
    examples = sys.argv[3] if len(sys.argv) > 3 else "10"
    with tempfile.TemporaryDirectory(prefix="sitelens-schemathesis-") as folder:
        server, base, env = start_server(binary, folder)
        try:
            key = api_key(base, binary, env)
            # The served document, run from a file: loaded by its address, schemathesis leaves
            # out the operation that serves it, GET /openapi.json.
            document = f"{folder}/openapi.json"
            with urllib.request.urlopen(f"{base}/api/v1/openapi.json") as served:
                with open(document, "wb") as file:
                    file.write(served.read())
            command = [
                sys.executable, "-S", "-m", "schemathesis.cli", "run",
                document,
                "--url", f"{base}/api/v1",
                "--header", f"Authorization: Bearer {key}",
                "--checks", "not_a_server_error,status_code_conformance,response_schema_conformance,"
                "content_type_conformance,response_headers_conformance",
                "--max-examples", examples,
                "--workers", "2",
                "--seed", "17",
                "--generation-database", "none",
                "--max-time", "100",
                "--request-timeout", "30",
                "--no-color",
            ]
            # In the temporary folder: schemathesis leaves its .schemathesis cache where it runs.
            run = subprocess.run(
                command, env=dict(os.environ, PYTHONPATH=os.path.abspath(tools)), cwd=folder
            )
            return run.returncode
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
