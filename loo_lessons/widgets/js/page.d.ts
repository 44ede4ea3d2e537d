// What the book's pages share on `window` (js/engine.js, the components, book/_static): typed
// here once for `tsc` (make jscheck). Shapes beyond these are the modules' own JSDoc.

/** A component module's default export (anywidget's shape). */
interface LooComponent {
  render(props: { model: any; el: HTMLElement }): void;
  handover?(el: HTMLElement, state: Record<string, unknown>): Record<string, unknown>;
}

interface Window {
  /** The in-page engine (js/engine.js's looMakeEngine). */
  looEngine: any;
  /** The worker started early by the first live widget (static.EARLY_START). */
  looEngineWorker: any;
  /** Where the engine's files are, when the page says so. */
  LOO_ENGINE_BASE?: string;
  /** The static components on the page: {name, el, model}. */
  looLessons: { name: string; el: HTMLElement; model: any }[];
  /** The widgets the engine made live: {kind, el, model, id}. */
  looLive: { kind: string; el: HTMLElement; model: any; id: number }[];
  /** The component modules by name, for the engine's handover. */
  looComponents: Record<string, LooComponent>;
}

interface WorkerOptions {
  /** Chromium's: a SharedWorker outlives a page navigating to the next. */
  extendedLifetime?: boolean;
}
