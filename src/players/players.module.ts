import { Module } from '@nestjs/common';
import { PlayersController } from './players.controller.js';
import { PlayersRepository } from './players.repository.js';
import { PlayersService } from './players.service.js';

/** Players and their statistics. */
@Module({ controllers: [PlayersController], providers: [PlayersService, PlayersRepository] })
export class PlayersModule {}
