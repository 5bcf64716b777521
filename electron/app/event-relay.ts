import type { BridgeEventName, EventPayload } from '../../shared/bridge/contract';
import type { EventSink } from '../bridge/handlers';

/**
 * The services emit before a host exists (the window, the browser host's stream), so they emit into
 * a relay that forwards to whatever host attaches.
 */
export class EventRelay implements EventSink {
  private sinks = new Set<EventSink>();

  attach(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => void this.sinks.delete(sink);
  }

  emit<N extends BridgeEventName>(name: N, payload: EventPayload<N>): void {
    for (const sink of this.sinks) sink.emit(name, payload);
  }
}
