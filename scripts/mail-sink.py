# A real SMTP server for the tests (aiosmtpd, installed by `just setup` into .tools/aiosmtpd):
# binds 127.0.0.1 on a free port (or the port given as the second argument), prints the port,
# and writes each message it accepts, decoded, to a JSON file in the folder given as the first
# argument ({"to": [...], "from": ..., "reply_to": ... or null, "subject": ..., "content_type": the
# message's, "body": the text part, "attachments": [{"filename", "content_type", "base64"}]},
# named in order of arrival), with the message as received beside it (NNNN.eml). Used by the
# server's account and report-mail tests and the Playwright journey.
# Run as: PYTHONPATH=.tools/aiosmtpd python3 -S scripts/mail-sink.py FOLDER [PORT]
import asyncio, base64, email, email.policy, json, os, socket, sys
from aiosmtpd.smtp import SMTP

out = sys.argv[1]
port = int(sys.argv[2]) if len(sys.argv) > 2 else 0


class Save:
    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        body = msg.get_body(("plain",)).get_content()
        attachments = [
            {
                "filename": part.get_filename(),
                "content_type": part.get_content_type(),
                "base64": base64.b64encode(part.get_payload(decode=True)).decode("ascii"),
            }
            for part in msg.iter_attachments()
        ]
        count = len([n for n in os.listdir(out) if not n.endswith(".eml")])
        path = os.path.join(out, "%04d" % count)
        with open(path + ".eml", "wb") as f:
            f.write(envelope.content)
        with open(path + ".json.part", "w") as f:
            reply_to = str(msg["reply-to"]) if msg["reply-to"] else None
            json.dump({
                "to": envelope.rcpt_tos,
                "from": str(msg["from"]),
                "reply_to": reply_to,
                "subject": str(msg["subject"]),
                "content_type": msg.get_content_type(),
                "body": body,
                "attachments": attachments,
            }, f)
        os.rename(path + ".json.part", path + ".json")
        return "250 OK"


async def main():
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen()
    server = await asyncio.get_running_loop().create_server(lambda: SMTP(Save()), sock=sock)
    print(sock.getsockname()[1], flush=True)
    await server.serve_forever()


asyncio.run(main())
