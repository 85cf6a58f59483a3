import { Module } from '@nestjs/common';
import { readsProvider } from '../database/read-replicas.js';
import { PlayersController } from './players.controller.js';
import { PlayersRepository } from './players.repository.js';
import { PlayersService } from './players.service.js';

/** Players and their statistics. */
@Module({ controllers: [PlayersController], providers: [PlayersService, PlayersRepository, readsProvider(PlayersRepository)] })
export class PlayersModule {}
