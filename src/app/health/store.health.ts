import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { NotesStore } from '../notes/notes.store.js';

/** How long the store may take to answer a readiness probe before it counts as down. */
const STORE_TIMEOUT_MS = 2_000;

/** Readiness of the notes store: it answers a trivial query in time. */
@Injectable()
export class StoreHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    private readonly store: NotesStore,
  ) {}

  check() {
    return this.health
      .check('database')
      .attempt(() => this.store.ping())
      .withTimeout(STORE_TIMEOUT_MS);
  }
}
