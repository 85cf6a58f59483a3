import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { FindPlayersQuery, PlayerStatisticsDto, PlayerGamesPageDto, PlayerGamesQuery, PlayerPageDto } from './dto/player.dto.js';
import { PlayersService } from './players.service.js';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };
const keyParam = ApiParam({ name: 'key', schema: { type: 'string', maxLength: 200 }, description: 'The player key from GET /players (the folded name).' });

@ApiTags('players')
@Controller('players')
export class PlayersController {
  constructor(private readonly players: PlayersService) {}

  @Get()
  @ApiOperation({ operationId: 'findPlayers', summary: 'Players whose name contains a part, with their game counts' })
  @ApiOkResponse({ type: PlayerPageDto })
  find(@Query() query: FindPlayersQuery): Promise<PlayerPageDto> {
    return this.players.find(query);
  }

  @Get(':key')
  @keyParam
  @ApiOperation({ operationId: 'getPlayer', summary: "A player's games played, won, lost, drawn and unfinished, overall and per family" })
  @ApiOkResponse({ type: PlayerStatisticsDto })
  @ApiNotFoundResponse({ content: problem, description: 'No game has this player.' })
  get(@Param('key') key: string): Promise<PlayerStatisticsDto> {
    return this.players.get(key);
  }

  @Get(':key/games')
  @keyParam
  @ApiOperation({ operationId: 'getPlayerGames', summary: "A player's games, newest first, with the outcome for the player" })
  @ApiOkResponse({ type: PlayerGamesPageDto })
  @ApiNotFoundResponse({ content: problem, description: 'No game has this player.' })
  games(@Param('key') key: string, @Query() query: PlayerGamesQuery): Promise<PlayerGamesPageDto> {
    return this.players.games(key, query);
  }
}
