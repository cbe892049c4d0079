/**
 * A deterministic, rule-based assistant for the assistant scenario: no model, only the world's
 * tools. `svc eval --scenario` calls `runMyAgent(inputs, context)`; the return value is the final
 * output. One behaviour is wrong on purpose: when the asked-for slot is taken, it books the next
 * free hour and sends the invite without asking (the `slot-taken` case fails).
 * Runs as it is under Node 24 (erasable TypeScript only).
 * @module
 */

/** What a world tool answers: its value, or an error result the agent may act on. */
export type ToolResult = { isError: false; value: unknown } | { isError: true; message: string };

/** The world's tools as plain async functions by name. */
export type Tools = Record<string, (args?: Record<string, unknown>) => Promise<ToolResult>>;

/** What `runMyAgent` is given besides the case's inputs. */
export interface AgentContext {
  tools: Tools;
  /** An MCP client connected to the same world (unused by this agent). */
  mcp?: unknown;
  /** The case's agent-visible files. */
  files?: readonly unknown[];
}

/** The case's inputs: the user's request. */
export interface AssistantInputs {
  request: string;
}

interface Contact {
  id: string;
  name: string;
  email: string;
}

/** A question back to the user when the request is ambiguous. */
export interface Clarification {
  question: string;
  candidates: string[];
}

async function call(tools: Tools, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const tool = tools[name];
  if (tool === undefined) throw new Error(`The world has no tool ${name}.`);
  return tool(args);
}

/** The one contact a name means, a clarification when it means several, or a message. */
async function resolveContact(tools: Tools, name: string): Promise<Contact | Clarification | string> {
  const found = await call(tools, 'find_contact', { name });
  if (found.isError) return `Sorry, I could not search your contacts: ${found.message}`;
  const contacts = found.value as Contact[];
  if (contacts.length === 0) return `Sorry, I found no contact named ${name}.`;
  if (contacts.length > 1) {
    const names = contacts.map((contact) => contact.name);
    return {
      question: `Which ${name} do you mean, please: ${names.join(' or ')}? I have not sent anything yet.`,
      candidates: names,
    };
  }
  return contacts[0]!;
}

function nextHour(start: string): string {
  const hour = Number(start.slice(11, 13)) + 1;
  return `${start.slice(0, 11)}${String(hour).padStart(2, '0')}:00`;
}

/** Carries out one request, acting through the world's tools. */
export async function runMyAgent(
  inputs: AssistantInputs,
  context: AgentContext,
): Promise<string | Clarification> {
  const { tools } = context;
  const { request } = inputs;

  const email = /^Email (\w+) that (.+?)\.?$/i.exec(request);
  if (email !== null) {
    const contact = await resolveContact(tools, email[1]!);
    if (typeof contact === 'string' || 'question' in contact) return contact;
    const sent = await call(tools, 'send_email', {
      to: contact.email,
      subject: 'A quick note',
      body: email[2]!,
    });
    return sent.isError ? `Sorry, the email was not sent: ${sent.message}` : `Sent to ${contact.name}.`;
  }

  const booking = /Book an? "([^"]+)" with (\w+) on (\d{4}-\d{2}-\d{2}) at (\d{2}:\d{2})/i.exec(request);
  if (booking === null) return 'Sorry, I can book meetings and send emails; what should I do?';
  const [, title, name, day, time] = booking as unknown as [string, string, string, string, string];
  const contact = await resolveContact(tools, name);
  if (typeof contact === 'string' || 'question' in contact) return contact;

  let start = `${day}T${time}`;
  let created = await call(tools, 'create_event', { start, day, title, attendees: [contact.email] });
  let note = '';
  // The deliberate flaw: a taken slot is silently moved to the next hour instead of asking.
  while (
    created.isError &&
    /already have an event/.test(created.message) &&
    Number(start.slice(11, 13)) < 18
  ) {
    note = ` ${time} was already taken, so I moved it.`;
    start = nextHour(start);
    created = await call(tools, 'create_event', { start, day, title, attendees: [contact.email] });
  }
  if (created.isError) return `Sorry, I could not book "${title}": ${created.message}`;
  const when = `${day} at ${start.slice(11)}`;
  const sent = await call(tools, 'send_email', {
    to: contact.email,
    subject: `Invitation: ${title}`,
    body: `Hi ${contact.name}, I booked "${title}" on ${when}. See you then! Sam`,
  });
  const invite = sent.isError
    ? ` The invite was not sent: ${sent.message}`
    : ` Invite sent to ${contact.email}.`;
  return `Booked "${title}" with ${contact.name} on ${when}.${note}${invite}`;
}
