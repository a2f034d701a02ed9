import { useId, useState, type FormEvent } from "react";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Mail } from "lucide-react";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import type { AdminMe, ContactKind, ContactMessagePage, ContactMessageView, MessageStatus } from "../../lib/domain";
import { adminDateTime, adminGet, adminSend } from "./api";

const kinds: { value: ContactKind | ""; label: string }[] = [
  { value: "", label: "All" },
  { value: "enterprise", label: "Enterprise" },
  { value: "agency", label: "Agency" },
  { value: "partner", label: "Partner" },
  { value: "general", label: "General" },
];

const selectClass =
  "h-10 rounded-lg border border-border bg-input px-3 text-base text-input-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

function StatusBadge({ status }: { status: MessageStatus }) {
  return status === "new" ? <Badge variant="amber">New</Badge> : <Badge variant="green">Answered</Badge>;
}

/** One message in full, with mark-answered for admins and owners. */
function MessageDetail({ id, me, onClose }: { id: number; me: AdminMe; onClose: () => void }) {
  const client = useQueryClient();
  const q = useQuery({ queryKey: ["admin", "message", id], queryFn: () => adminGet<ContactMessageView>(`/api/admin/messages/${id}`) });
  const answer = useMutation({
    mutationFn: () => adminSend<ContactMessageView>("POST", `/api/admin/messages/${id}/answered`, {}),
    onSuccess: (m) => {
      client.setQueryData(["admin", "message", id], m);
      void client.invalidateQueries({ queryKey: ["admin", "messages"] });
    },
  });
  if (q.isPending) return <Spinner className="size-6" />;
  if (q.isError) return <p role="alert">Unable to load the message: {q.error.message}</p>;
  const m = q.data;
  return (
    <article aria-labelledby="message-title" className="flex flex-col gap-4 rounded-xl border bg-card p-5">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id="message-title" className="text-lg font-semibold">
            {m.subject}
          </h3>
          <p className="text-sm text-muted-foreground">
            {m.name} &lt;{m.email}&gt; · {adminDateTime.format(new Date(m.createdAt))} · <span className="capitalize">{m.kind}</span>
          </p>
        </div>
        <StatusBadge status={m.status} />
      </header>
      {m.details.length > 0 && (
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          {m.details.map((d) => (
            <div key={d.label} className="contents">
              <dt className="font-medium">{d.label}</dt>
              <dd className="text-muted-foreground">{d.value}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="whitespace-pre-wrap rounded-lg bg-muted/50 p-3 text-sm">{m.message}</p>
      {m.status === "answered" && m.answeredAt && (
        <p className="text-sm text-muted-foreground">
          Answered {adminDateTime.format(new Date(m.answeredAt))}
          {m.answeredBy ? ` by ${m.answeredBy}` : ""}.
        </p>
      )}
      {answer.isError && (
        <Alert variant="destructive">
          <p>{answer.error.message}</p>
        </Alert>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button asChild variant="outline">
          <a href={`mailto:${encodeURIComponent(m.email)}?subject=${encodeURIComponent(`Re: ${m.subject}`)}`}>
            <Mail aria-hidden="true" /> Reply by e-mail
          </a>
        </Button>
        {m.status === "new" &&
          (me.level === "support" ? (
            <span className="text-sm text-muted-foreground">Your level (support) can only read.</span>
          ) : (
            <Button onClick={() => answer.mutate()} disabled={answer.isPending}>
              {answer.isPending ? "Saving…" : "Mark answered"}
            </Button>
          ))}
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
    </article>
  );
}

/** Contact, enterprise, agency and partner messages: by kind and status, searchable, newest first. */
export function MessagesPanel({ me }: { me: AdminMe }) {
  const id = useId();
  const [kind, setKind] = useState<ContactKind | "">("");
  const [status, setStatus] = useState<MessageStatus | "">("");
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [open, setOpen] = useState<number | null>(null);
  const params = new URLSearchParams();
  if (kind) params.set("kind", kind);
  if (status) params.set("status", status);
  if (search) params.set("q", search);
  const q = useInfiniteQuery({
    queryKey: ["admin", "messages", kind, status, search],
    queryFn: ({ pageParam }) => {
      const p = new URLSearchParams(params);
      if (pageParam !== null) p.set("before", String(pageParam));
      const qs = p.toString();
      return adminGet<ContactMessagePage>(`/api/admin/messages${qs ? `?${qs}` : ""}`);
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextBefore,
  });
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setSearch(typed.trim());
  };
  const messages = q.data?.pages.flatMap((p) => p.messages) ?? [];
  return (
    <section aria-labelledby="messages-title" className="flex flex-col gap-4">
      <div>
        <h2 id="messages-title" className="text-xl font-semibold">
          Messages
        </h2>
        <p className="text-sm text-muted-foreground">What visitors sent through the contact, enterprise, agency and partner forms, newest first.</p>
      </div>
      <div role="group" aria-label="Kind" className="flex flex-wrap gap-2">
        {kinds.map((k) => (
          <Button key={k.value} size="sm" variant={kind === k.value ? "default" : "outline"} aria-pressed={kind === k.value} onClick={() => setKind(k.value)}>
            {k.label}
          </Button>
        ))}
      </div>
      <form onSubmit={onSearch} className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-q`}>Search</Label>
          <Input id={`${id}-q`} type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="Name, e-mail, company, text" className="w-72" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-status`}>Status</Label>
          <select id={`${id}-status`} className={selectClass} value={status} onChange={(e) => setStatus(e.target.value as MessageStatus | "")}>
            <option value="">All</option>
            <option value="new">New</option>
            <option value="answered">Answered</option>
          </select>
        </div>
        <Button type="submit" variant="outline">
          Search
        </Button>
      </form>
      {open !== null && <MessageDetail id={open} me={me} onClose={() => setOpen(null)} />}
      {q.isPending ? (
        <Spinner className="size-6" />
      ) : q.isError ? (
        <p role="alert">Unable to load the messages: {q.error.message}</p>
      ) : messages.length === 0 ? (
        <p className="text-muted-foreground">No messages match.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border">
          <table className="w-full text-left text-sm">
            <thead className="bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                {["Received", "Kind", "From", "Subject", "Status", ""].map((c, i) => (
                  <th key={i} scope="col" className="px-3 py-2">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr key={m.id} className="border-t align-top">
                  <td className="whitespace-nowrap px-3 py-2">{adminDateTime.format(new Date(m.createdAt))}</td>
                  <td className="px-3 py-2 capitalize">{m.kind}</td>
                  <td className="px-3 py-2">
                    {m.name}
                    <span className="block text-xs text-muted-foreground">{m.email}</span>
                  </td>
                  <td className="px-3 py-2">{m.subject}</td>
                  <td className="px-3 py-2">
                    <StatusBadge status={m.status} />
                  </td>
                  <td className="px-3 py-2">
                    <Button size="sm" variant="outline" onClick={() => setOpen(m.id)} aria-label={`View the message from ${m.name}`}>
                      View
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {q.hasNextPage && (
        <Button variant="outline" className="self-start" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          {q.isFetchingNextPage ? "Loading…" : "Older messages"}
        </Button>
      )}
    </section>
  );
}
