import { Module } from '@nestjs/common';
import { readsProvider } from '../database/read-replicas.js';
import { TagsController } from './tags.controller.js';
import { TagsRepository } from './tags.repository.js';
import { TagsService } from './tags.service.js';

/** Tags on games: the owner's words, kept beside the games (not read from their files). */
@Module({ controllers: [TagsController], providers: [TagsService, TagsRepository, readsProvider(TagsRepository)] })
export class TagsModule {}
