// Puts the offline and storage pieces together for the page (main.tsx stays short):
// the service worker, the cached-model list, the storage store and the moments
// that ask for persistence, re-read the estimate and warn.
import type { AppServices } from './services-contract';
import type { Controller } from './controller';
import { choiceKey, modelChoice } from '../persist/custom-model';
import type { CachedModelsStore } from '../state/offline-inventory';
import { createCachedModelsStore } from './offline-inventory';
import { startOffline, type OfflineStore } from '../browser/service-worker';
import { createStorageStore, type StorageStore } from '../browser/storage-quota';
import { watchStorageMoments, withStorage } from './storage-moments';
import { findModel } from '../../generator/catalogue';
import type { StoragePlan } from './storage-plan';

/** The stores the offline panel reads. */
export interface OfflineWiring {
  offline: OfflineStore;
  models: CachedModelsStore;
  storage: StorageStore;
  /** Where this visit keeps things; a frame without storage says so instead of quota figures. */
  plan?: Pick<StoragePlan, 'get' | 'subscribe'>;
}

export function startOfflineWiring(
  services: AppServices,
  controller: Controller,
): { wiring: OfflineWiring; services: AppServices } {
  const offline = startOffline();
  // The caches this visit's models are in: the app site's own in a frame granted Storage Access. Their
  // reader loads with the first listing, outside the first download.
  const models = createCachedModelsStore(async () => {
    const caches = services.storage ? await services.storage.modelCaches() : globalThis.caches;
    const { listCachedModels } = await import('../browser/cached-models');
    return listCachedModels(caches);
  });
  const storage = createStorageStore();
  const refresh = () => void models.refresh();
  refresh();
  let was = services.status.get();
  services.status.subscribe(() => {
    const now = services.status.get();
    // The evaluator loads its relevance and support models later, one by one: each is a new model to list.
    if (
      (['generator', 'evaluator'] as const).some(
        (n) => now[n].state !== was[n].state || now[n].models.length !== was[n].models.length,
      )
    )
      refresh();
    was = now;
  });
  // A model deleted from the picker is no longer available offline.
  services.models.subscribe(() => {
    if (!services.models.get().deleting) refresh();
  });
  watchStorageMoments({
    status: services.status,
    storage,
    model: () => {
      const s = controller.getState().settings;
      const choice = modelChoice(s.model, s.customModel);
      const entry = choice?.kind === 'catalogue' ? findModel(choice.id) : undefined;
      const label = entry?.label ?? (choice?.kind === 'custom' ? choice.name : 'the language model');
      // Already downloaded: loading it stores nothing new.
      const cached = choice ? services.models.get().marks[choiceKey(choice)] === true : false;
      return {
        label,
        bytes: entry && !cached ? Math.max(entry.builds.f16.vramMB, entry.builds.f32.vramMB) * 1e6 : null,
      };
    },
  });
  const library = { ...services.library, actions: withStorage(services.library.actions, storage) };
  return {
    wiring: { offline, models, storage, ...(services.storage ? { plan: services.storage } : {}) },
    services: { ...services, library },
  };
}
