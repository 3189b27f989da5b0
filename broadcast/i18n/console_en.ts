<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="zh_CN">
<context>
    <name></name>
    <message>
        <location filename="../console/controller.py" line="140"/>
        <source>轮到 {who}</source>
        <translation>{who} to&#xa0;act</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="143"/>
        <source>第{n}局结束：回车存入赛季（Ctrl+S）</source>
        <translation>Game {n} over: Enter saves it to the season (Ctrl+S)</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="145"/>
        <source>比赛已结束并存入赛季 · Ctrl+N 新比赛</source>
        <translation>Match over and saved to the season · Ctrl+N new match</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="147"/>
        <source>加赛后总分仍相同：回车抽签（种子记录在案，G11.2）</source>
        <translation>Still tied after the extra game: Enter draws lots (seed recorded, G11.2)</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="151"/>
        <source>本场胜者：{who}。回车结束比赛并存入赛季</source>
        <translation>Winner: {who}. Enter finishes the match and saves it to the season</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="152"/>
        <source>本场胜者：{who} · Ctrl+N 新比赛</source>
        <translation>Winner: {who} · Ctrl+N new match</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="154"/>
        <source>（加赛，G11.2）</source>
        <translation> (extra game, G11.2)</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="156"/>
        <source>第{n}局结束 · 下一局{extra}：输入上班座位 1–6，回车</source>
        <translation>Game {n} over · next game{extra}: type the first leader&apos;s seat 1–6, Enter</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="158"/>
        <source>开局：输入上班座位 1–6（第一个亮出同花色一对3的人，G12.1），回车</source>
        <translation>New game: type the first leader&apos;s seat 1–6 (who first shows a same-suit pair of 3s, G12.1), Enter</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="239"/>
        <source>看不懂“{ch}”：牌用 3–9 T J Q K A 2 B R，过 p，让 y</source>
        <translation>Cannot read “{ch}”: cards are 3–9 T J Q K A 2 B R, pass p, yield y</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="243"/>
        <source>请输入一手牌、过 (p) 或让 (y)</source>
        <translation>Type a play, pass (p) or yield (y)</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="258"/>
        <source>上班座位应为 1–6</source>
        <translation>The first leader&apos;s seat is 1–6</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="306"/>
        <source>未记录：{line}</source>
        <translation>not recorded: {line}</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/controller.py" line="326"/>
        <source>数据库被其他程序占用已 {s} 秒：%n 个操作都保留着，解除占用后按顺序写入</source>
        <translation>
            <numerusform>The database has been held by another program for {s} s: %n operation is kept and will be written when it is free</numerusform>
            <numerusform>The database has been held by another program for {s} s: %n operations are kept and will be written in order when it is free</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="378"/>
        <source>已存入赛季：{episode}第{n}局，英雄榜已更新</source>
        <translation>Saved to the season: {episode}game {n}; the leaderboard is updated</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="384"/>
        <source>已存入赛季：{episode}比赛结果，英雄榜已更新</source>
        <translation>Saved to the season: {episode}the match result; the leaderboard is updated</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="393"/>
        <source>第{n}期</source>
        <translation>episode {n},</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="399"/>
        <source>抽签（种子 {seed}）</source>
        <translation>Lots drawn (seed {seed})</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="154"/>
        <location filename="../console/dialogs.py" line="183"/>
        <location filename="../console/dialogs.py" line="241"/>
        <location filename="../console/dialogs.py" line="298"/>
        <location filename="../console/dialogs.py" line="373"/>
        <location filename="../console/dialogs.py" line="429"/>
        <location filename="../console/dialogs.py" line="447"/>
        <location filename="../console/dialogs.py" line="526"/>
        <source>原因</source>
        <translation>Reason</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="158"/>
        <location filename="../console/dialogs.py" line="208"/>
        <location filename="../console/dialogs.py" line="248"/>
        <location filename="../console/dialogs.py" line="319"/>
        <location filename="../console/dialogs.py" line="404"/>
        <location filename="../console/dialogs.py" line="433"/>
        <location filename="../console/dialogs.py" line="450"/>
        <location filename="../console/dialogs.py" line="582"/>
        <source>请写明原因</source>
        <translation>Give the reason</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="171"/>
        <source>更正第{n}步</source>
        <translation>Correct move {n}</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="171"/>
        <source>删除第{n}步</source>
        <translation>Delete move {n}</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="171"/>
        <source>在第{n}步前插入</source>
        <translation>Insert before move {n}</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="175"/>
        <source>原来：第{n}步 {line}</source>
        <translation>Was: move {n} {line}</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="180"/>
        <source>应为</source>
        <translation>Should be</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="203"/>
        <source>请输入这一步（如 3 TTTTT、4 过）</source>
        <translation>Type the move (e.g. 3 TTTTT, 4 pass)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="227"/>
        <source>更正上班座位（G12.1）</source>
        <translation>Correct the first leader (G12.1)</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/dialogs.py" line="228"/>
        <source>现在：{who}；本局已录 %n 步，按新的上班座位重新核对</source>
        <translation>
            <numerusform>Now: {who}; %n move so far, checked again from the new first leader</numerusform>
            <numerusform>Now: {who}; %n moves so far, checked again from the new first leader</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="239"/>
        <location filename="../console/dialogs.py" line="733"/>
        <source>上班座位</source>
        <translation>First leader</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="247"/>
        <source>上班座位没有变</source>
        <translation>The first leader is unchanged</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="270"/>
        <source>更正比赛设置</source>
        <translation>Correct the match set-up</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="304"/>
        <location filename="../console/dialogs.py" line="401"/>
        <source>每个座位都要有选手</source>
        <translation>Every seat needs a player</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="341"/>
        <source>更正上场名单（赛季比赛）</source>
        <translation>Correct the lineup (season match)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="348"/>
        <source>两队坐反了（单双号换边）</source>
        <translation>The teams sat on the wrong sides (exchange odd and even)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="352"/>
        <source>赛季已存入的局是按原来的单双号计分的：不能换边</source>
        <translation>The games in the season were scored for the sides as they were: the sides cannot be exchanged</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="353"/>
        <source>队伍</source>
        <translation>Teams</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="366"/>
        <source>从第 </source>
        <translation>from game </translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="367"/>
        <source> 局起</source>
        <translation> on</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="369"/>
        <source>1：开场就录错了，赛季已存的局一并更正；更大：从这一局起换人，之前的局保留原来的选手</source>
        <translation>1: keyed wrong from the start, the games in the season are corrected too; later: a substitution from that game, the games before keep their players</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="371"/>
        <source>更正范围</source>
        <translation>Holds</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="388"/>
        <source>{s}号座位（{team}）</source>
        <translation>Seat {s} ({team})</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="403"/>
        <source>上场名单没有改动</source>
        <translation>The lineup did not change</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="425"/>
        <source>单号 1·3·5</source>
        <translation>odd seats 1·3·5</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="425"/>
        <source>双号 2·4·6</source>
        <translation>even seats 2·4·6</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="427"/>
        <source>受罚队伍</source>
        <translation>Team penalised</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="441"/>
        <source>弃权（G11.2：对方胜）</source>
        <translation>Forfeit (G11.2: the other team wins)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="445"/>
        <source>弃权队伍</source>
        <translation>Team forfeiting</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="458"/>
        <source>选手迟到（超过5分钟按弃权，G11.2）</source>
        <translation>Player late (more than 5 minutes forfeits, G11.2)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="462"/>
        <source>座位</source>
        <translation>Seat</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="466"/>
        <source> 分钟</source>
        <translation> min</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="467"/>
        <source>迟到</source>
        <translation>Late by</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="469"/>
        <location filename="../console/docks/cues.py" line="58"/>
        <source>说明</source>
        <translation>Note</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="495"/>
        <source>录入手牌（发牌时）</source>
        <translation>Enter the hands (at the deal)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="506"/>
        <source>未知（只核对张数）</source>
        <translation>unknown (counts only)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="517"/>
        <source>牌：3–9 T(10) J Q K A 2 B(小王) R(大王)；留空 = 未知</source>
        <translation>Cards: 3–9 T(10) J Q K A 2 B(small joker) R(big joker); empty = unknown</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/dialogs.py" line="751"/>
        <source>（其后%n步不再成立）</source>
        <translation>
            <numerusform> (%n later move no longer stands)</numerusform>
            <numerusform> (%n later moves no longer stand)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="564"/>
        <source>{s}号：看不懂“{ch}”</source>
        <translation>Seat {s}: cannot read “{ch}”</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="573"/>
        <source>合计超过四副牌：{over}（每点16张，大小王各4张，G2.1）</source>
        <translation>More than the four-deck pack: {over} (16 of a rank, 4 of each joker, G2.1)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="618"/>
        <source>新比赛（从赛季）</source>
        <translation>New match (from the season)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="623"/>
        <source>赛季</source>
        <translation>Season</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="626"/>
        <source>期数</source>
        <translation>Episode</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="628"/>
        <source>如：积分赛、第一轮</source>
        <translation>e.g. league, round 1</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="629"/>
        <source>轮次</source>
        <translation>Round</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="272"/>
        <location filename="../console/dialogs.py" line="632"/>
        <source>单号队（1·3·5）</source>
        <translation>Odd team (1·3·5)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="272"/>
        <location filename="../console/dialogs.py" line="633"/>
        <source>双号队（2·4·6）</source>
        <translation>Even team (2·4·6)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="282"/>
        <location filename="../console/dialogs.py" line="641"/>
        <source>{s}号座位</source>
        <translation>Seat {s}</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/dialogs.py" line="344"/>
        <source>赛季比赛 {where}：赛季已存本场 %n 局</source>
        <translation>
            <numerusform>Season match {where}: the season holds %n game of it</numerusform>
            <numerusform>Season match {where}: the season holds %n games of it</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../console/dialogs.py" line="422"/>
        <source>裁判罚分（G11.2：每次扣%n分）</source>
        <translation>
            <numerusform>Referee penalty (G11.2: −%n point each)</numerusform>
            <numerusform>Referee penalty (G11.2: −%n points each)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../console/dialogs.py" line="543"/>
        <source>已录 %n 手，合计 {n}/{m} 张</source>
        <translation>
            <numerusform>%n hand entered, {n}/{m} cards</numerusform>
            <numerusform>%n hands entered, {n}/{m} cards</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../console/dialogs.py" line="567"/>
        <source>{s}号：%n张，应为{m}张（G2.1）</source>
        <translation>
            <numerusform>Seat {s}: %n card, should be {m} (G2.1)</numerusform>
            <numerusform>Seat {s}: %n cards, should be {m} (G2.1)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="689"/>
        <source>请选择两支队伍</source>
        <translation>Pick two teams</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="691"/>
        <source>两支队伍不能相同（G1.2）</source>
        <translation>The two teams must differ (G1.2)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="695"/>
        <source>{seats}号座位：找不到这名选手</source>
        <translation>Seat {seats}: no such player</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="697"/>
        <source>同一选手不能坐两个座位（G1.1）</source>
        <translation>A player holds one seat (G1.1)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="722"/>
        <source>更正记录</source>
        <translation>Corrections</translation>
    </message>
    <message>
        <location filename="../console/controller.py" line="265"/>
        <location filename="../console/dialogs.py" line="727"/>
        <source>撤销</source>
        <translation>Undo</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="728"/>
        <location filename="../console/window.py" line="287"/>
        <source>重做</source>
        <translation>Redo</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="729"/>
        <source>更正</source>
        <translation>Correct</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="730"/>
        <source>删除</source>
        <translation>Delete</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="731"/>
        <source>插入</source>
        <translation>Insert</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="732"/>
        <source>手牌</source>
        <translation>Hands</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="734"/>
        <source>比赛设置</source>
        <translation>set-up</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="739"/>
        <source>座位 {s}</source>
        <translation>seats {s}</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="741"/>
        <source>{a}号 → {b}号</source>
        <translation>seat {a} → seat {b}</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="745"/>
        <source>第{n}步</source>
        <translation>move {n}</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="53"/>
        <source>提示</source>
        <translation>Cue</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="54"/>
        <source>类别</source>
        <translation>Kind</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="55"/>
        <source>开始</source>
        <translation>Start</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="56"/>
        <source>时长/剩余</source>
        <translation>Length/left</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="57"/>
        <source>赞助商</source>
        <translation>Sponsor</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="182"/>
        <source>（接上条自动）</source>
        <translation> (follows automatically)</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="191"/>
        <source> 迟{s}秒</source>
        <translation> {s} s late</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="196"/>
        <source>剩 {t}</source>
        <translation>{t} left</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="198"/>
        <source>进行中 {t}</source>
        <translation>running {t}</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="198"/>
        <source>进行中</source>
        <translation>running</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="77"/>
        <source>提前结束</source>
        <translation>cut short</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="78"/>
        <source>清屏中断</source>
        <translation>stopped by panic</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="79"/>
        <source>未播出</source>
        <translation>did not air</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="205"/>
        <source>跳过</source>
        <translation>Skip</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="313"/>
        <source>双击一条提示：设为下一条（不执行）</source>
        <translation>Double-click a cue: make it the next one (not run)</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="339"/>
        <source>节目流程已走完（或未载入）</source>
        <translation>Rundown done (or not loaded)</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="374"/>
        <source>节目流程 {ep}</source>
        <translation>Rundown {ep}</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="377"/>
        <source>进行中：{label}{left}</source>
        <translation>Running: {label}{left}</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="403"/>
        <source>下一条：{n}. {label}</source>
        <translation>Next: {n}. {label}</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="382"/>
        <location filename="../console/docks/cues.py" line="393"/>
        <source>已走完</source>
        <translation>done</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="384"/>
        <source>未载入（需要赞助排期）</source>
        <translation>not loaded (needs the placements)</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="393"/>
        <source>GO  {a} / {b}</source>
        <translation>GO  {a} / {b}</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="391"/>
        <source>空格</source>
        <translation>Space</translation>
    </message>
    <message>
        <location filename="../console/docks/cues.py" line="395"/>
        <source>跳过 {k}</source>
        <translation>Skip {k}</translation>
    </message>
    <message>
        <location filename="../console/docks/graphics.py" line="65"/>
        <source>{name}：{key} 放到预览/撤下预览；{clear} 清除（节目和预览）</source>
        <translation>{name}: {key} to/from preview; {clear} clears it (program and preview)</translation>
    </message>
    <message>
        <location filename="../console/docks/graphics.py" line="109"/>
        <source>上</source>
        <translation>on</translation>
    </message>
    <message>
        <location filename="../console/docks/graphics.py" line="109"/>
        <source>下</source>
        <translation>off</translation>
    </message>
    <message>
        <location filename="../console/docks/graphics.py" line="291"/>
        <source>TAKE 将：{what}</source>
        <translation>TAKE will: {what}</translation>
    </message>
    <message>
        <location filename="../console/docks/graphics.py" line="293"/>
        <source>预览与节目相同 · 绿框=预览 PVW，红底=节目 PGM</source>
        <translation>Preview equals program · green frame = PVW, red = PGM</translation>
    </message>
    <message>
        <location filename="../qt/monitor.py" line="99"/>
        <source>没有 Qt WebEngine</source>
        <translation>Qt WebEngine missing</translation>
    </message>
    <message>
        <location filename="../console/docks/monitors.py" line="70"/>
        <source>OBS 节目输出（每秒一张）</source>
        <translation>OBS program output (one a second)</translation>
    </message>
    <message>
        <location filename="../console/docks/monitors.py" line="98"/>
        <source>OBS 未启用（--no-obs）</source>
        <translation>OBS disabled (--no-obs)</translation>
    </message>
    <message>
        <location filename="../console/docks/monitors.py" line="104"/>
        <source>OBS 未连接：{why}</source>
        <translation>OBS not connected: {why}</translation>
    </message>
    <message>
        <location filename="../console/docks/monitors.py" line="115"/>
        <source>OBS 截图失败：{why}</source>
        <translation>OBS screenshot failed: {why}</translation>
    </message>
    <message>
        <location filename="../console/docks/monitors.py" line="143"/>
        <source>预览 PVW（页面）</source>
        <translation>Preview PVW (page)</translation>
    </message>
    <message>
        <location filename="../console/docks/monitors.py" line="144"/>
        <source>节目 PGM（页面）</source>
        <translation>Program PGM (page)</translation>
    </message>
    <message>
        <location filename="../console/docks/monitors.py" line="150"/>
        <location filename="../console/docks/monitors.py" line="161"/>
        <source>图形服务器未运行：没有页面可看</source>
        <translation>Graphics server not running: no page to show</translation>
    </message>
    <message>
        <location filename="../console/docks/onair.py" line="67"/>
        <source>未执行：{zh} / {en}</source>
        <translation>Not done: {en}</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="273"/>
        <source>口播 Mentions（主持人说出名称时按）</source>
        <translation>Mentions (press when the host says the name)</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="274"/>
        <source>镜头 Shots（广告位出镜时按）</source>
        <translation>Shots (press when the placement is on camera)</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="275"/>
        <source>九宫格抽奖 Draw：选手选格 → 上节目揭晓 → 记入奖品</source>
        <translation>Nine-grid draw: contestant picks a cell → reveal on air → prize logged</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="276"/>
        <source>选手</source>
        <translation>Contestant</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="277"/>
        <source>收起揭晓</source>
        <translation>Hide the reveal</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="278"/>
        <source>人名条 Lower third（到预览，再 TAKE）</source>
        <translation>Lower third (to preview, then TAKE)</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="196"/>
        <source>✕ 请先选择抽奖选手</source>
        <translation>✕ pick the contestant first</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="219"/>
        <source>主持人</source>
        <translation>Host</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="220"/>
        <source>主持人姓名（人名条）</source>
        <translation>Host&apos;s name (lower third)</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="242"/>
        <source>已撤销 {time} 的口播：{name}（报告不计）</source>
        <translation>Mention of {name} at {time} taken back (reports drop it)</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="310"/>
        <source>撤销口播 {key}（本期还没有）</source>
        <translation>Take back a mention {key} (none yet this episode)</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="315"/>
        <source>撤销最后一次口播：{name} {time}  {key}</source>
        <translation>Take back the last mention: {name} {time}  {key}</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="338"/>
        <source>主持人 {name}  {key}</source>
        <translation>Host {name}  {key}</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="348"/>
        <source>撤销 {name} 的最后一次口播（按错）</source>
        <translation>Take back {name}&apos;s last mention (keyed by mistake)</translation>
    </message>
    <message>
        <location filename="../console/docks/sponsors.py" line="365"/>
        <source>{n}. {prize}：已被 {who} 抽走</source>
        <translation>{n}. {prize}: drawn by {who}</translation>
    </message>
    <message>
        <location filename="../console/docks/status.py" line="92"/>
        <source>OBS 未启用</source>
        <translation>OBS off</translation>
    </message>
    <message>
        <location filename="../console/docks/status.py" line="100"/>
        <source>OBS 已连接</source>
        <translation>OBS connected</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/docks/status.py" line="113"/>
        <source>图形页 %n 个</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/docks/status.py" line="115"/>
        <source>图形服务器未运行</source>
        <translation>Graphics server not running</translation>
    </message>
    <message>
        <location filename="../console/docks/status.py" line="121"/>
        <source>播出记录出错 {n} 次</source>
        <translation>As-run errors: {n}</translation>
    </message>
    <message>
        <location filename="../console/docks/status.py" line="123"/>
        <source>播出记录中 {ep}</source>
        <translation>As-run recording {ep}</translation>
    </message>
    <message>
        <location filename="../console/docks/status.py" line="125"/>
        <source>播出记录未启动</source>
        <translation>As-run not started</translation>
    </message>
    <message>
        <location filename="../console/docks/status.py" line="129"/>
        <source>录制 {t}</source>
        <translation>Recording {t}</translation>
    </message>
    <message>
        <location filename="../console/docks/status.py" line="131"/>
        <source>录制 未开始</source>
        <translation>Recording not started</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="271"/>
        <source>本局还没有出牌，无法撤销</source>
        <translation>Nothing to undo in this game yet</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="275"/>
        <source>撤销第{n}步</source>
        <translation>Undo move {n}</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="276"/>
        <source>撤销：{line}</source>
        <translation>Undo: {line}</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="284"/>
        <source>没有可以重做的一步</source>
        <translation>Nothing to redo</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="287"/>
        <source>重做：{line}</source>
        <translation>Redo: {line}</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="314"/>
        <source>本局还没有出牌</source>
        <translation>No move in this game yet</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="330"/>
        <source>还没有开局：直接输入上班座位</source>
        <translation>No game started: type the first leader&apos;s seat</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/window.py" line="543"/>
        <source>已从日志恢复 %n 个操作：比赛已设好，尚未开局</source>
        <translation>
            <numerusform>Recovered %n action from the journal: the match is set up, no game started yet</numerusform>
            <numerusform>Recovered %n actions from the journal: the match is set up, no game started yet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../console/window.py" line="545"/>
        <source>已从日志恢复 %n 个操作：回到第{g}局第{m}步</source>
        <translation>
            <numerusform>Recovered %n action from the journal: back at game {g}, move {m}</numerusform>
            <numerusform>Recovered %n actions from the journal: back at game {g}, move {m}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../console/window.py" line="572"/>
        <source>● 数据库忙（被其他程序占用）：%n 个操作等待写入，{s} 秒</source>
        <translation>
            <numerusform>● Database busy (held by another program): %n operation waiting to be written, {s} s</numerusform>
            <numerusform>● Database busy (held by another program): %n operations waiting to be written, {s} s</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="162"/>
        <location filename="../console/window.py" line="433"/>
        <source>单号队</source>
        <translation>Odd team</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="162"/>
        <location filename="../console/window.py" line="433"/>
        <source>双号队</source>
        <translation>Even team</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="167"/>
        <source>胜率估算已关闭</source>
        <translation>Win % estimate switched off</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="169"/>
        <source>开局后每一步显示两队胜率（估算）</source>
        <translation>Each team&apos;s win % (estimated) after every move, once the game starts</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="172"/>
        <source>第{n}步 估算中… 图为第{m}步后</source>
        <translation>Move {n}: estimating… (chart: after move {m})</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="173"/>
        <source>第{n}步 估算中…</source>
        <translation>Move {n}: estimating…</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="173"/>
        <source>开局 估算中…</source>
        <translation>Deal: estimating…</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="175"/>
        <location filename="../console/docks/winprob.py" line="392"/>
        <source>第{m}步后</source>
        <translation>After move {m}</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="175"/>
        <location filename="../console/docks/winprob.py" line="392"/>
        <source>开局</source>
        <translation>At the deal</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="177"/>
        <source>{where} · 终局</source>
        <translation>{where} · game over</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="178"/>
        <source>已录手牌</source>
        <translation>hands entered</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="178"/>
        <source>未录手牌，抽样</source>
        <translation>hands not entered: sampled</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/docks/winprob.py" line="179"/>
        <source>%n次推演估算</source>
        <translation>
            <numerusform>estimated from %n play-out</numerusform>
            <numerusform>estimated from %n play-outs</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="203"/>
        <source>平 {p}%</source>
        <translation>Level {p}%</translation>
    </message>
    <message>
        <location filename="../console/docks/winprob.py" line="398"/>
        <source>{odd} {p}% · {even} {q}%</source>
        <translation>{odd} {p}% · {even} {q}%</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="455"/>
        <source>先开局（输入上班座位）再录手牌</source>
        <translation>Start the game (type the first leader&apos;s seat) before entering hands</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="474"/>
        <source>发牌</source>
        <translation>deal</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="482"/>
        <source>打开牌谱</source>
        <translation>Open record</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="482"/>
        <source>牌谱 (*.gjn);;所有文件 (*)</source>
        <translation>Records (*.gjn);;All files (*)</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="497"/>
        <source>这场比赛没有关联赛季（Ctrl+N 从赛季新建比赛）</source>
        <translation>This match is not linked to a season (Ctrl+N: new match from the season)</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="499"/>
        <source>没有要存的：本局还没结束，或已存入赛季</source>
        <translation>Nothing to save: the game is not over, or already saved</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="506"/>
        <source>数据库里还没有赛季（season create）</source>
        <translation>No season in the database yet (season create)</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="587"/>
        <source>第{n}局/共{m}局</source>
        <translation>Game {n} of {m}</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="589"/>
        <source>彩排 {file}</source>
        <translation>Rehearsal {file}</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="590"/>
        <source>导播台</source>
        <translation>Operator console</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="594"/>
        <source>日志 #{seq}</source>
        <translation>Journal #{seq}</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="155"/>
        <source>“{key}”不是一个按键</source>
        <translation>“{key}” is not one key</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="158"/>
        <source>{key} 留给输入行（打字、选提示、清空）</source>
        <translation>{key} belongs to the entry line (typing, picking, clearing)</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="162"/>
        <source>{key} 会打进输入行：请加 Ctrl 或 Alt</source>
        <translation>{key} would type into the entry line: add Ctrl or Alt</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="165"/>
        <source>{key} 已是“{other}”的键</source>
        <translation>{key} is already the key of “{other}”</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="167"/>
        <source>同一个键写了两次</source>
        <translation>the same key twice</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="297"/>
        <source>（输入行为空时）</source>
        <translation> (entry line empty)</translation>
    </message>
    <message>
        <location filename="../console/startup.py" line="52"/>
        <source>导播台 — 正在启动</source>
        <translation>Operator console — starting</translation>
    </message>
    <message>
        <location filename="../console/startup.py" line="53"/>
        <source>正在打开项目数据库和演播室…</source>
        <translation>Opening the project database and the studio…</translation>
    </message>
    <message>
        <location filename="../console/startup.py" line="59"/>
        <source>正在启动…</source>
        <translation>Starting…</translation>
    </message>
    <message>
        <location filename="../console/startup.py" line="63"/>
        <source>数据库被其他程序占用，正在等待（已等 {s} 秒）。
关闭占用它的程序，导播台会自己继续。</source>
        <translation>The database is held by another program: waiting ({s} s so far).
Close the program holding it and the console carries on by itself.</translation>
    </message>
    <message>
        <location filename="../console/startup.py" line="64"/>
        <source>数据库忙：被其他程序占用</source>
        <translation>Database busy: held by another program</translation>
    </message>
    <message>
        <location filename="../console/startup.py" line="66"/>
        <source>正在打开项目数据库和演播室…（{s} 秒）</source>
        <translation>Opening the project database and the studio… ({s} s)</translation>
    </message>
    <message>
        <location filename="../console/rehearsal.py" line="116"/>
        <source>牌谱 {file} 已在彩排窗口打开：{db}（节目数据库没有改动；关掉彩排窗口即回到节目）</source>
        <translation>Record {file} opened in a rehearsal window: {db} (the show&apos;s database is unchanged; close the rehearsal window to go back to the show)</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/rehearsal.py" line="143"/>
        <source>彩排：牌谱 {file} 共 %n 步已放上牌桌（彩排数据库 {db}，节目数据库未动）</source>
        <translation>
            <numerusform>Rehearsal: record {file}, %n move, is on the table (rehearsal database {db}; the show&apos;s database is untouched)</numerusform>
            <numerusform>Rehearsal: record {file}, %n moves, is on the table (rehearsal database {db}; the show&apos;s database is untouched)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/rehearsal.py" line="168"/>
        <source>牌谱的座位名没有用上：</source>
        <translation>The record&apos;s seat names were not used: </translation>
    </message>
    <message>
        <location filename="../console/rehearsal.py" line="186"/>
        <source>逐步查看只在彩排窗口里（比赛 ▸ 打开牌谱…）</source>
        <translation>Stepping through a record works in a rehearsal window only (Match ▸ Open record…)</translation>
    </message>
    <message>
        <location filename="../console/rehearsal.py" line="235"/>
        <source>从这一步接着打</source>
        <translation>Continue from this move</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/rehearsal.py" line="237"/>
        <source>从第{k}步接着打 {line}：牌谱后面的 %n 步（第{a}–{last}步）将从彩排中删除。接着打？</source>
        <translation>
            <numerusform>Continue from move {k} with {line}: the record&apos;s %n later move (move {a}) will be removed from the rehearsal. Continue?</numerusform>
            <numerusform>Continue from move {k} with {line}: the record&apos;s %n later moves (moves {a}–{last}) will be removed from the rehearsal. Continue?</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/preflight.py" line="110"/>
        <source>开录前检查</source>
        <translation>Pre-show check</translation>
    </message>
    <message>
        <location filename="../console/preflight.py" line="113"/>
        <location filename="../console/preflight.py" line="165"/>
        <source>正在检查…</source>
        <translation>Checking…</translation>
    </message>
    <message>
        <location filename="../console/preflight.py" line="129"/>
        <source>仍然开始录制</source>
        <translation>Start recording anyway</translation>
    </message>
    <message>
        <location filename="../console/preflight.py" line="132"/>
        <source>取消</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location filename="../console/preflight.py" line="137"/>
        <source>重新检查 F5</source>
        <translation>Check again F5</translation>
    </message>
    <message>
        <location filename="../console/preflight.py" line="140"/>
        <source>关闭</source>
        <translation>Close</translation>
    </message>
    <message>
        <location filename="../console/preflight.py" line="200"/>
        <source>全部通过：可以开始录制</source>
        <translation>All green: ready to record</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/preflight.py" line="202"/>
        <source>%n 项未通过。仍然开始录制的话，播出记录会记下这 %n 项。</source>
        <translation>
            <numerusform>%n red. Recording started anyway is recorded in the as-run log with this line.</numerusform>
            <numerusform>%n red. Recording started anyway is recorded in the as-run log with these %n lines.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/preflight.py" line="203"/>
        <source>仍然开始录制（{n} 项未通过）</source>
        <translation>Start recording anyway ({n} red)</translation>
    </message>
    <message>
        <location filename="../console/preflight.py" line="206"/>
        <source>{n} 项未通过：按每一行说的处理后按 F5 重新检查</source>
        <translation>{n} red: do what each line says, then F5 to check again</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="287"/>
        <source>本场局数</source>
        <translation>Games in the match</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="295"/>
        <source>本场已开始出牌：规则预设不能再改（已出的牌按它判定）</source>
        <translation>Play has started: the rules preset cannot change (the plays so far were judged by it)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="296"/>
        <source>规则预设</source>
        <translation>Rules preset</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="318"/>
        <source>比赛设置没有改动</source>
        <translation>Nothing in the set-up changed</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="495"/>
        <source>更正手牌</source>
        <translation>Correct the hands</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="521"/>
        <source>更正后，裁判引擎按新手牌重新核对本局已出的每一步；有一步不再成立则不更正，并指出是哪一步</source>
        <translation>The engine re-checks every move of this game against the corrected hands; if one no longer stands, nothing is corrected and that move is named</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="581"/>
        <source>手牌没有改动</source>
        <translation>The hands are unchanged</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="111"/>
        <source>核对中…</source>
        <translation>Checking…</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="749"/>
        <source>（撤销更正）</source>
        <translation> (undo of a correction)</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="342"/>
        <source>手牌（座位 {s}）</source>
        <translation>the hands (seats {s})</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="344"/>
        <source>上班座位 {a}号 → {b}号</source>
        <translation>first leader seat {a} → seat {b}</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="346"/>
        <source>撤销更正</source>
        <translation>Undo the correction</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="346"/>
        <source>撤销更正：{what}</source>
        <translation>Undo the correction: {what}</translation>
    </message>
</context>
<context>
    <name>CueList</name>
    <message>
        <location filename="../console/docks/cues.py" line="49"/>
        <source>节目流程 CUE LIST</source>
        <translation>CUE LIST</translation>
    </message>
</context>
<context>
    <name>EntryPanel</name>
    <message>
        <location filename="../console/widgets.py" line="628"/>
        <source>座位</source>
        <translation>Seat</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="628"/>
        <source>出牌</source>
        <translation>Move</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="628"/>
        <source>说法</source>
        <translation>Words</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="643"/>
        <source>更正后不再成立（请按实际重新录入）：{lines}
第{n}步 {rule} {zh} / {en}</source>
        <translation>No longer standing after the correction (key them again as played): {lines}
Move {n} {rule} {en}</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="680"/>
        <source>彩排 {file}：牌桌在第{k}步 / 共{n}步（彩排数据库 {db}，节目数据库未动）</source>
        <translation>Rehearsal {file}: the table is at move {k} of {n} (rehearsal database {db}; the show&apos;s database is untouched)</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="681"/>
        <source>{back}/{forward} 逐步，{start}/{end} 开局/最后；从这一步打字即接着打</source>
        <translation>{back}/{forward} step, {start}/{end} start/end; type a move to continue from here</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="682"/>
        <source>彩排 {file}：第{k}步 / 共{n}步 · {back}/{forward} 逐步 · 打字即从这一步接着打</source>
        <translation>Rehearsal {file}: move {k} of {n} · {back}/{forward} step · type a move to continue from here</translation>
    </message>
</context>
<context>
    <name>GraphicsDock</name>
    <message>
        <location filename="../console/docks/graphics.py" line="34"/>
        <source>图形 GRAPHICS  PVW → TAKE → PGM</source>
        <translation>GRAPHICS  PVW → TAKE → PGM</translation>
    </message>
    <message>
        <location filename="../console/docks/graphics.py" line="36"/>
        <source>TAKE 上节目</source>
        <translation>TAKE to program</translation>
    </message>
    <message>
        <location filename="../console/docks/graphics.py" line="37"/>
        <source>CUT 立即切</source>
        <translation>CUT at once</translation>
    </message>
    <message>
        <location filename="../console/docks/graphics.py" line="38"/>
        <source>清屏 PANIC</source>
        <translation>PANIC clear all</translation>
    </message>
</context>
<context>
    <name>HelpSheet</name>
    <message>
        <location filename="../console/hotkeys.py" line="228"/>
        <source>快捷键 Keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="231"/>
        <source>所有按键（输入行有焦点时也有效）</source>
        <translation>Every key (they work while the entry line has the focus)</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="236"/>
        <source>按键</source>
        <translation>Key</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="236"/>
        <source>操作</source>
        <translation>Operation</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="236"/>
        <source>分组</source>
        <translation>Group</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="241"/>
        <source>输入行</source>
        <translation>Entry line</translation>
    </message>
    <message>
        <location filename="../console/hotkeys.py" line="249"/>
        <source>（输入行为空时）</source>
        <translation> (entry line empty)</translation>
    </message>
</context>
<context>
    <name>Keys</name>
    <message>
        <location filename="../console/keys.py" line="40"/>
        <source>比赛 Match</source>
        <translation>Match</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="41"/>
        <source>编辑 Edit</source>
        <translation>Edit</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="42"/>
        <source>视图 View</source>
        <translation>View</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="43"/>
        <source>帮助 Help</source>
        <translation>Help</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="44"/>
        <source>图形 Graphics</source>
        <translation>Graphics</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="45"/>
        <source>节目流程 Cue list</source>
        <translation>Cue list</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="46"/>
        <source>赞助 Sponsors</source>
        <translation>Sponsors</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="47"/>
        <source>制片 Producer</source>
        <translation>Producer</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="71"/>
        <source>新比赛（从赛季选队、排座）</source>
        <translation>New match (teams and seats from the season)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="73"/>
        <source>打开牌谱（GJN）…</source>
        <translation>Open a record (GJN)…</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="74"/>
        <source>录入手牌（发牌时）</source>
        <translation>Enter the hands (at the deal)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="76"/>
        <source>裁判罚分 −2（写明原因）</source>
        <translation>Referee penalty −2 (with the reason)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="79"/>
        <source>存入赛季（本局 / 比赛结果）</source>
        <translation>Save to the season (this game / the match result)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="81"/>
        <source>选手迟到</source>
        <translation>Player late</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="82"/>
        <source>弃权</source>
        <translation>Forfeit</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="84"/>
        <source>抽签（加赛后仍平）</source>
        <translation>Draw lots (tied after the extra game)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="86"/>
        <source>撤销上一步（写明原因）</source>
        <translation>Undo the last move (with the reason)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="88"/>
        <source>重做撤销的一步</source>
        <translation>Redo the undone move</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="90"/>
        <source>更正所选的一步</source>
        <translation>Correct the selected move</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="92"/>
        <source>在所选的一步前插入漏录的一步</source>
        <translation>Insert a forgotten move before the selected one</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="94"/>
        <source>删除所选的一步（多录）</source>
        <translation>Delete the selected move (keyed by mistake)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="95"/>
        <source>更正记录</source>
        <translation>Corrections</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="96"/>
        <source>更正上班座位…</source>
        <translation>Correct the first leader…</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="101"/>
        <source>更正比赛设置（座位、队名）…</source>
        <translation>Correct the match set-up (seats, team names)…</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="105"/>
        <source>牌谱中选上一步</source>
        <translation>Select the previous move in the record</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="106"/>
        <source>牌谱中选下一步</source>
        <translation>Select the next move in the record</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="107"/>
        <source>彩排：退后一步（牌桌回到上一步）</source>
        <translation>Rehearsal: one move back (the table at the move before)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="109"/>
        <source>彩排：前进一步（牌谱的下一步）</source>
        <translation>Rehearsal: one move forward (the record&apos;s next move)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="111"/>
        <source>彩排：回到开局</source>
        <translation>Rehearsal: back to the start</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="112"/>
        <source>彩排：到牌谱的最后一步</source>
        <translation>Rehearsal: to the record&apos;s last move</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="113"/>
        <source>彩排：走到牌谱中所选的一步</source>
        <translation>Rehearsal: to the move selected in the record</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="114"/>
        <source>回到输入行</source>
        <translation>Back to the entry line</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="115"/>
        <source>中文界面 Chinese UI</source>
        <translation>中文界面 Chinese UI</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="116"/>
        <source>English UI 英文界面</source>
        <translation>English UI 英文界面</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="117"/>
        <source>恢复默认布局</source>
        <translation>Reset layout</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="118"/>
        <source>快捷键设置…</source>
        <translation>Keyboard shortcuts…</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="119"/>
        <source>快捷键一览</source>
        <translation>All keys</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="123"/>
        <source>制片工作台（赞助、合同、选手、赛季播出）…</source>
        <translation>Producer&apos;s workspace (sponsors, contracts, players, season delivery)…</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="157"/>
        <source>TAKE：预览上节目</source>
        <translation>TAKE: preview to program</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="161"/>
        <source>CUT：预览立即上节目（无动画）</source>
        <translation>CUT: preview to program at once (no animation)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="168"/>
        <source>紧急清屏：节目全部撤下</source>
        <translation>Panic: take everything off program</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="178"/>
        <source>{name}：放到预览 / 撤下预览</source>
        <translation>{name}: to preview / off preview</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="187"/>
        <source>{name}：清除（节目和预览）</source>
        <translation>{name}: clear (program and preview)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="196"/>
        <source>GO：执行下一条提示</source>
        <translation>GO: run the next cue</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="200"/>
        <source>GO（输入行为空时）</source>
        <translation>GO (when the entry line is empty)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="204"/>
        <source>跳过下一条提示</source>
        <translation>Skip the next cue</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="208"/>
        <source>开录前检查（OBS、素材、合同、比赛设置、磁盘）…</source>
        <translation>Pre-show check (OBS, assets, contracts, set-up, disk)…</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="223"/>
        <source>口播 +1：赞助商面板上第 {n} 个</source>
        <translation>Mention +1: sponsor {n} on the panel</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="230"/>
        <source>撤销本期最后一次口播（按错；报告不计）</source>
        <translation>Take back the episode&apos;s last mention (keyed by mistake; reports drop it)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="238"/>
        <source>{place}镜头 +1（广告位出镜）</source>
        <translation>{place} shot +1 (placement on screen)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="247"/>
        <source>人名条：{seat}号位选手（到预览）</source>
        <translation>Lower third: the player in seat {seat} (to preview)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="255"/>
        <source>人名条：主持人（到预览）</source>
        <translation>Lower third: the host (to preview)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="259"/>
        <source>主持人姓名…</source>
        <translation>Host&apos;s name…</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="267"/>
        <source>记录所打的一手（或所选的提示）</source>
        <translation>Record what was typed (or the picked suggestion)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="268"/>
        <source>在提示列表中选择</source>
        <translation>Pick in the suggestion list</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="269"/>
        <source>把所选提示填入输入行</source>
        <translation>Put the picked suggestion into the entry line</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="270"/>
        <source>清空输入行</source>
        <translation>Clear the entry line</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="271"/>
        <source>过牌 pass（再按回车）</source>
        <translation>Pass (then Enter)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="272"/>
        <source>让牌 yield（再按回车）</source>
        <translation>Yield (then Enter)</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="273"/>
        <source>指明座位：烧牌或其他不在轮次的出牌</source>
        <translation>Name the seat: a burn or any other out-of-turn play</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="97"/>
        <source>更正手牌…</source>
        <translation>Correct the hands…</translation>
    </message>
</context>
<context>
    <name>KeysDialog</name>
    <message>
        <location filename="../console/keysdialog.py" line="58"/>
        <source>快捷键设置</source>
        <translation>Keyboard shortcuts</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="61"/>
        <source>选一行按回车，再按新的键；Esc 取消。改动立即生效并保存。</source>
        <translation>Pick a row and press Enter, then the new key; Esc cancels. Changes apply at once and are saved.</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="66"/>
        <source>分组</source>
        <translation>Group</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="66"/>
        <source>操作</source>
        <translation>Does</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="66"/>
        <source>按键</source>
        <translation>Key</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="83"/>
        <source>更改…</source>
        <translation>Change…</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="84"/>
        <source>无按键</source>
        <translation>No key</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="85"/>
        <source>恢复默认</source>
        <translation>Default</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="86"/>
        <source>全部恢复默认</source>
        <translation>All defaults</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="136"/>
        <source>请按新的键（Esc 取消）</source>
        <translation>Press the new key (Esc cancels)</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="172"/>
        <source>未能恢复：{ids}</source>
        <translation>Not restored: {ids}</translation>
    </message>
    <message>
        <location filename="../console/keysdialog.py" line="183"/>
        <source>{what}：{keys}</source>
        <translation>{what}: {keys}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../console/keys.py" line="29"/>
        <source>比赛(&amp;M)</source>
        <translation>&amp;Match</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="30"/>
        <source>编辑(&amp;E)</source>
        <translation>&amp;Edit</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="31"/>
        <source>视图(&amp;V)</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="32"/>
        <source>帮助(&amp;H)</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <location filename="../console/window.py" line="81"/>
        <source>牌桌 TABLE</source>
        <translation>TABLE</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="35"/>
        <source>节目流程(&amp;R)</source>
        <translation>&amp;Rundown</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="33"/>
        <source>图形(&amp;G)</source>
        <translation>&amp;Graphics</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="34"/>
        <source>赞助(&amp;S)</source>
        <translation>&amp;Sponsors</translation>
    </message>
    <message>
        <location filename="../console/keys.py" line="36"/>
        <source>制片(&amp;P)</source>
        <translation>&amp;Producer</translation>
    </message>
</context>
<context>
    <name>Monitors</name>
    <message>
        <location filename="../console/docks/monitors.py" line="169"/>
        <source>监视器 MONITORS</source>
        <translation>MONITORS</translation>
    </message>
</context>
<context>
    <name>Names</name>
    <message>
        <location filename="../console/names.py" line="18"/>
        <source>比分</source>
        <translation>Scoreboard</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="19"/>
        <location filename="../console/names.py" line="45"/>
        <source>英雄榜</source>
        <translation>Leaderboard</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="20"/>
        <source>海选榜</source>
        <translation>Qualifier board</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="21"/>
        <source>九宫格</source>
        <translation>Prize grid</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="22"/>
        <source>角标</source>
        <translation>Corner bug</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="23"/>
        <location filename="../console/names.py" line="41"/>
        <source>标版</source>
        <translation>Bumper</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="24"/>
        <source>字幕条</source>
        <translation>Ticker</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="25"/>
        <location filename="../console/names.py" line="46"/>
        <source>片尾</source>
        <translation>Credits</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="26"/>
        <location filename="../console/names.py" line="37"/>
        <source>解说区</source>
        <translation>Commentary</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="27"/>
        <source>人名条</source>
        <translation>Lower third</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="28"/>
        <source>记牌器</source>
        <translation>Card counter</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="33"/>
        <source>桌面</source>
        <translation>Table</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="34"/>
        <source>九宫格下方</source>
        <translation>Under the grid</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="29"/>
        <source>胜率</source>
        <translation>Win %</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="35"/>
        <source>奖品台</source>
        <translation>Prize stand</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="36"/>
        <source>文化衫</source>
        <translation>Shirts</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="40"/>
        <source>图形</source>
        <translation>Graphic</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="42"/>
        <source>宣传片</source>
        <translation>Film</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="43"/>
        <source>环节</source>
        <translation>Segment</translation>
    </message>
    <message>
        <location filename="../console/names.py" line="44"/>
        <source>抽奖</source>
        <translation>Draw</translation>
    </message>
</context>
<context>
    <name>Reasons</name>
    <message>
        <location filename="../console/dialogs.py" line="35"/>
        <location filename="../console/dialogs.py" line="41"/>
        <location filename="../console/dialogs.py" line="46"/>
        <location filename="../console/dialogs.py" line="47"/>
        <location filename="../console/dialogs.py" line="53"/>
        <location filename="../console/dialogs.py" line="54"/>
        <source>录入错误</source>
        <translation>Keying error</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="36"/>
        <location filename="../console/dialogs.py" line="42"/>
        <location filename="../console/dialogs.py" line="47"/>
        <source>裁判改判</source>
        <translation>Referee changed the ruling</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="37"/>
        <source>选手收回（裁判允许）</source>
        <translation>Player took it back (referee allowed)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="39"/>
        <source>撤销错了</source>
        <translation>Undone by mistake</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="43"/>
        <source>漏录</source>
        <translation>A move was not keyed</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="44"/>
        <location filename="../console/dialogs.py" line="46"/>
        <source>多录</source>
        <translation>A move was keyed twice</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="49"/>
        <source>座位录错</source>
        <translation>Seat keyed wrong</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="50"/>
        <source>选手换人（裁判允许）</source>
        <translation>Player substituted (referee allowed)</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="51"/>
        <source>队名录错</source>
        <translation>Team name keyed wrong</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="53"/>
        <source>裁判核对手牌</source>
        <translation>Referee checked the hands</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="54"/>
        <source>更正错了</source>
        <translation>The correction was wrong</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="57"/>
        <source>大声喧哗</source>
        <translation>Talking loudly</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="58"/>
        <source>偷看牌</source>
        <translation>Peeking at cards</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="59"/>
        <source>发暗语</source>
        <translation>Coded words to a partner</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="60"/>
        <source>发肢体暗号</source>
        <translation>Coded gestures to a partner</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="61"/>
        <source>违背够级规则</source>
        <translation>Breaking the rules of Gouji</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="64"/>
        <source>弃权</source>
        <translation>Forfeit</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="65"/>
        <source>选手迟到超过5分钟</source>
        <translation>Player more than 5 minutes late</translation>
    </message>
    <message>
        <location filename="../console/dialogs.py" line="66"/>
        <source>选手退赛</source>
        <translation>Player withdrew</translation>
    </message>
</context>
<context>
    <name>RecordModel</name>
    <message>
        <location filename="../console/models.py" line="118"/>
        <source>等待写入数据库</source>
        <translation>waiting to be written to the database</translation>
    </message>
    <message>
        <location filename="../console/models.py" line="120"/>
        <source>牌谱中后面的一步（牌桌还没走到；从前面接着打会删除它）</source>
        <translation>A later move of the record (the table is not there yet; continuing from an earlier move removes it)</translation>
    </message>
</context>
<context>
    <name>SeatCard</name>
    <message numerus="yes">
        <location filename="../console/widgets.py" line="102"/>
        <source>还剩 %n 张</source>
        <translation>
            <numerusform>%n card left</numerusform>
            <numerusform>%n cards left</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SponsorDock</name>
    <message>
        <location filename="../console/docks/sponsors.py" line="46"/>
        <source>赞助 SPONSOR EVENTS</source>
        <translation>SPONSOR EVENTS</translation>
    </message>
</context>
<context>
    <name>TablePanel</name>
    <message>
        <location filename="../console/widgets.py" line="326"/>
        <source>上手 {seat}号 {words}</source>
        <translation>Top: seat&#xa0;{seat} {words}</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="334"/>
        <source>发牌（新一轮）</source>
        <translation>Lead (new round)</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="336"/>
        <source>本局结束</source>
        <translation>Game over</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="338"/>
        <source>等待开局</source>
        <translation>Waiting for the game</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="340"/>
        <source>轮到 {who}</source>
        <translation>{who} to&#xa0;act</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="342"/>
        <source>（对头）</source>
        <translation>(opposite)</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="347"/>
        <source>第{n}局 / 共{m}局 · {rules}</source>
        <translation>Game {n} of {m} · {rules}</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="353"/>
        <source>手牌已录（六家）</source>
        <translation>hands entered (all six)</translation>
    </message>
    <message numerus="yes">
        <location filename="../console/widgets.py" line="353"/>
        <source>手牌已录 %n 家</source>
        <translation>
            <numerusform>hands entered: %n seat</numerusform>
            <numerusform>hands entered: %n seats</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="359"/>
        <source>比分  {a} {pa} : {pb} {b}</source>
        <translation>Score  {a} {pa} : {pb} {b}</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="360"/>
        <source>单号队</source>
        <translation>Odd team</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="363"/>
        <source>双号队</source>
        <translation>Even team</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="370"/>
        <source>弃权：{team}（{why}）</source>
        <translation>Forfeit: {team} ({why})</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="375"/>
        <source>总分</source>
        <translation>points</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="376"/>
        <source>加赛</source>
        <translation>extra game</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="377"/>
        <source>抽签</source>
        <translation>lots</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="378"/>
        <source>对方弃权</source>
        <translation>forfeit</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="380"/>
        <source>本场胜者：{who}（{by}）</source>
        <translation>Winner: {who} ({by})</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="384"/>
        <source>加赛后仍平：抽签（G11.2）</source>
        <translation>Tied after the extra game: lots (G11.2)</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="386"/>
        <source>三局总分相同：加赛一局（G11.2）</source>
        <translation>Tied after three games: one extra game (G11.2)</translation>
    </message>
    <message>
        <location filename="../console/widgets.py" line="395"/>
        <source>罚分：</source>
        <translation>Penalties: </translation>
    </message>
</context>
<context>
    <name>WinprobDock</name>
    <message>
        <location filename="../console/docks/winprob.py" line="34"/>
        <source>胜率 WIN %</source>
        <translation>WIN %</translation>
    </message>
</context>
</TS>
