import type { ComponentType } from "react";
import type { AdminMe } from "../../lib/domain";
import { AuditPanel } from "./audit-panel";
import { MessagesPanel } from "./messages-panel";
import { OutboxPanel } from "./outbox-panel";

/** One tab of the admin area: its id in `?tab=`, its label, and what it shows. */
export interface AdminPanel {
  id: string;
  label: string;
  Component: ComponentType<{ me: AdminMe }>;
}

/** The admin area's tabs, in order (the first is the default of `/admin`). */
export const panels: AdminPanel[] = [
  { id: "audit", label: "Audit log", Component: AuditPanel },
  { id: "messages", label: "Messages", Component: MessagesPanel },
  { id: "outbox", label: "Mail outbox", Component: OutboxPanel },
];
