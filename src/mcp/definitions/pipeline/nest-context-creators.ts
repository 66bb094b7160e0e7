/*
 * Nest's enhancer context creators and consumers, the machinery its router and
 * `ExternalContextCreator` run on. `@nestjs/core`'s index does not export them (its
 * sibling packages take them from `@nestjs/core/internal`); each folder's own index does.
 * This file is the one place that reaches past the index, so a Nest upgrade that moves
 * them touches nothing else.
 */
export { GuardsContextCreator } from '@nestjs/core/guards/index.js';
export {
  InterceptorsConsumer,
  InterceptorsContextCreator,
} from '@nestjs/core/interceptors/index.js';
export { PipesConsumer, PipesContextCreator } from '@nestjs/core/pipes/index.js';
export { ExternalExceptionFilterContext } from '@nestjs/core/exceptions/external-exception-filter-context.js';
