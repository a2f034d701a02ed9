// A real OpenID Connect provider on 127.0.0.1 for the server's sign-in tests
// (crates/server/tests/server/routes/oidc.rs): oauth2-mock-server (pinned in package.json),
// which approves every authorization at once, checks PKCE and puts our nonce in the ID token.
// It prints {"issuer": "http://127.0.0.1:PORT"} once listening. Each line read on stdin is a
// JSON object of claims merged into every token it signs from then on (who "signs in":
// sub, email, email_verified, ..., or a wrong aud or nonce to test refusals); it answers "ok".
import { createInterface } from "node:readline";
import { OAuth2Server } from "oauth2-mock-server";

const server = new OAuth2Server();
await server.issuer.keys.generate("RS256");
await server.start(0, "127.0.0.1");
const port = server.address().port;
// The library names itself `localhost`; the server under test resolves no names in its tests.
server.issuer.url = `http://127.0.0.1:${port}`;

let claims = {};
server.service.on("beforeTokenSigning", (token) => {
  Object.assign(token.payload, claims);
});

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "") return;
  claims = JSON.parse(line);
  process.stdout.write("ok\n");
});
process.stdin.on("end", () => void server.stop().then(() => process.exit(0)));
process.stdout.write(`${JSON.stringify({ issuer: server.issuer.url })}\n`);
