import { WebSocket } from 'ws';

type Event = { eventId: string; eventType: string };

/** Calls `onEvent` for each event as it happens; after a drop, resumes after the newest event it saw. */
export async function tail(api: string, token: string, workspaceId: string, onEvent: (e: Event) => void, signal: AbortSignal) {
  let since: string | undefined;
  while (!signal.aborted) {
    const headers = { authorization: `Bearer ${token}`, 'x-workspace-id': workspaceId };
    const res = await fetch(`${api}/api/v1/realtime/tickets`, { method: 'POST', headers });
    const { data } = (await res.json()) as { data: { ticket: { url: string } } };
    const ws = new WebSocket(data.ticket.url);
    const stop = () => ws.close();
    signal.addEventListener('abort', stop, { once: true });
    ws.on('open', () => ws.send(JSON.stringify({ action: 'subscribe', events: ['*'], since })));
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString());
      if (frame.type !== 'event') return;
      const id = frame.event?.eventId ?? frame.eventId;
      if (!since || id > since) since = id; // live events may arrive out of id order: resume after the newest
      onEvent(frame.event ?? frame);
    });
    await new Promise((closed) => ws.on('close', closed));
    signal.removeEventListener('abort', stop);
  }
}
