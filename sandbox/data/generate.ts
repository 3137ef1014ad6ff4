// Demo data for the sandbox: one German relief organisation with personnel, volunteer hours and a
// course business, deterministic for the same (seed, scale, anchorDate).
import type { Store } from './store';
import { isStoreEmpty } from './memory-store';
import { formatBerlinDate, parseDate } from './time';
import { generateBusiness } from './demo/business';
import { GenerationContext, SCALES, type Scale } from './demo/context';
import { generateCourses } from './demo/courses';
import { generateHours } from './demo/hours';
import { generateInbox } from './demo/inbox';
import { generatePersonnel } from './demo/personnel';
import { generateReferenceData } from './demo/reference';

export { SCALES, type Scale, type ScaleCounts } from './demo/context';
export { feedPath } from './demo/inbox';

export interface GenerateOptions {
  scale: Scale;
  seed: number;
  /** The generated world's "today" (YYYY-MM-DD), or 'today' for the store clock's Berlin date. */
  anchorDate: string;
  /**
   * The private feeds' secrets: default drawn from the seed like everything else (the same for
   * the same seed); the app's demo draws them at random, as a feed address is a secret.
   */
  feedSecret?: () => string;
}

/**
 * Fills an empty store with demo data and its settings, in one transaction. Dates are spread
 * around the anchor date (services and appointments: 18 months before to 3 weeks after, their
 * hours until the anchor day; courses: 6 months before to 12 months after); every change time and
 * every hour entry lies before the anchor day.
 */
export function generateDemoData(store: Store, options: GenerateOptions): void {
  if (!isStoreEmpty(store)) throw new Error('generateDemoData needs an empty store');
  const counts = SCALES[options.scale];
  if (!counts) throw new Error(`unknown scale: ${String(options.scale)}`);
  const anchorDate =
    options.anchorDate === 'today' ? formatBerlinDate(Date.parse(store.now())) : options.anchorDate;

  store.transaction(() => {
    const ctx = new GenerationContext(store, counts, options.seed, parseDate(anchorDate));
    const reference = generateReferenceData(ctx);
    const personnel = generatePersonnel(ctx, options.feedSecret);
    const business = generateBusiness(ctx, reference);
    const courses = generateCourses(ctx, personnel, business);
    const events = generateHours(ctx, personnel, courses);
    generateInbox(ctx, personnel, courses, events);
    store.setSettings({ uvtFavorites: true, anchorDate, seed: options.seed, scale: options.scale });
  });
}
