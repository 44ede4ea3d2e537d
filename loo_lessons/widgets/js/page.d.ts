// What the book's pages share on `window` (js/engine.js, the components, book/_static): typed
// here once for `tsc` (make jscheck). Shapes beyond these are the modules' own JSDoc.

/** A component module's default export (anywidget's shape). */
interface LooComponent {
  render(props: import("./types").RenderProps): void;
  handover?(el: HTMLElement, state: Record<string, unknown>): Record<string, unknown>;
}

interface Window {
  /** The in-page engine (js/engine.js's looMakeEngine). */
  looEngine: import("./types").Engine;
  /** The worker started early by the first live widget (static.EARLY_START). */
  looEngineWorker?: import("./types").EarlyWorker;
  /** Where the engine's files are, when the page says so. */
  LOO_ENGINE_BASE?: string;
  /** The static components on the page: {name, el, model}. */
  looLessons: { name: string; el: HTMLElement; model: import("./types").Model }[];
  /** The widgets the engine made live: {kind, el, model, id}. */
  looLive: { kind: string; el: HTMLElement; model: import("./types").EngineModel; id: number }[];
  /** The component modules by name, for the engine's handover. */
  looComponents: Record<string, LooComponent>;
}

interface WorkerOptions {
  /** Chromium's: a SharedWorker outlives a page navigating to the next. */
  extendedLifetime?: boolean;
}
