<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name></name>
    <message>
        <location filename="../producer/window.py" line="67"/>
        <location filename="../producer/window.py" line="283"/>
        <source>海选榜</source>
        <translation>Qualifier board</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="140"/>
        <source>前</source>
        <translation>Top</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="145"/>
        <source> 名</source>
        <translation> players</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="234"/>
        <source>{title}：{p} 名选手，计入 {g} 局，拒绝 {r} 局 · {key}</source>
        <translation>{title}: {p} {players}, {g} {games} counted, {r} refused · ranked by {key}</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="272"/>
        <source>与第 {n} 名并列，不在前 {top} 名</source>
        <translation>tied with no. {n}, outside the top {top}</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="165"/>
        <source>名次</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="166"/>
        <source>昵称</source>
        <translation>Nickname</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="167"/>
        <source>平台编号</source>
        <translation>Platform ID</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="168"/>
        <source>局数</source>
        <translation>Games</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="169"/>
        <source>积分</source>
        <translation>Points</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="170"/>
        <source>场均</source>
        <translation>Avg</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="171"/>
        <source>头科</source>
        <translation>First</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="172"/>
        <source>头科率</source>
        <translation>First %</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="173"/>
        <source>大落</source>
        <translation>Last</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="174"/>
        <source>圈三</source>
        <translation>Shut out</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="175"/>
        <source>赛季队伍</source>
        <translation>Season team</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="248"/>
        <source>并列{n}</source>
        <translation>{n} (tied)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="275"/>
        <source>未邀请</source>
        <translation>not invited</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="214"/>
        <location filename="../producer/tabs/qualifiers.py" line="215"/>
        <source>未邀请：{why}</source>
        <translation>Not invited: {why}</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="211"/>
        <source>无法读取海选榜：{why}</source>
        <translation>Cannot read the qualifier board: {why}</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="230"/>
        <source>海选榜是空的：先用 qualifiers import 导入海选记录</source>
        <translation>The qualifier board is empty: import the qualifier records first (qualifiers import)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="235"/>
        <source>网络海选</source>
        <translation>Online qualifiers</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="158"/>
        <location filename="../producer/tabs/qualifiers.py" line="227"/>
        <source>邀请前 {n} 名进入赛季…</source>
        <translation>Invite the top {n} into the season…</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="215"/>
        <location filename="../producer/tabs/qualifiers.py" line="319"/>
        <source>邀请进入赛季</source>
        <translation>Invite into the season</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="320"/>
        <source>把海选榜前 {n} 名作为选手加入“{season}”？已在赛季的不会重复加入。</source>
        <translation>Add the board&apos;s top {n} to “{season}” as players? Players already in the season are not added twice.</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="342"/>
        <source>已邀请 {a} 名进入“{season}”（{b} 名已在赛季）：在“赛季队伍”一列为他们选择队伍</source>
        <translation>Invited {a} into “{season}” ({b} already in the season): choose their teams in the “Season team” column</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="346"/>
        <source>；{k} 名与最后一名并列而未邀请</source>
        <translation>; {k} tied with the last one invited were not invited</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="296"/>
        <source>（未分队）</source>
        <translation>(no team)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="183"/>
        <source>海选记录用 python -m broadcast qualifiers import 导入，每局由规则引擎复核，被拒的不计分（docs/qualifiers.md）。昵称可在邀请前改（赛季选手姓名最多 {limit} 个字）；邀请的选手没有队伍：在“赛季队伍”一列为他们选择队伍。</source>
        <translation>Qualifier records are imported with python -m broadcast qualifiers import; the rules engine re-checks every game and a refused one scores nothing (docs/qualifiers.md). Rename a nickname before inviting (a season player&apos;s name is at most {limit} characters); invited players have no team: choose it in the “Season team” column.</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="80"/>
        <source>刊例价 {y:,} 元/次</source>
        <translation>list price {y:,} yuan per airing</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="84"/>
        <source>刊例价 {y:,} 元/{per}</source>
        <translation>list price {y:,} yuan per {per}</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="201"/>
        <source>（未选）</source>
        <translation>(none chosen)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="272"/>
        <source>选择文件…</source>
        <translation>Choose file…</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="272"/>
        <source>选择宣传片…</source>
        <translation>Choose brand film…</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="275"/>
        <source>清除</source>
        <translation>Clear</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="295"/>
        <source>无</source>
        <translation>none</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="296"/>
        <source>未选择</source>
        <translation>not chosen</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="325"/>
        <source>{rel} · 实测 {s:.1f} 秒（应为 {w} 秒）</source>
        <translation>{rel} · measured {s:.1f} s (should be {w} s)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="341"/>
        <location filename="../producer/tabs/season.py" line="284"/>
        <source>图片 (*.png *.jpg *.jpeg *.webp)</source>
        <translation>Images (*.png *.jpg *.jpeg *.webp)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="343"/>
        <source>视频 (*.mp4 *.mov *.m4v)</source>
        <translation>Videos (*.mp4 *.mov *.m4v)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="381"/>
        <source>文件未采用：{why}</source>
        <translation>File not taken: {why}</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="385"/>
        <source>不能用：{why}</source>
        <translation>Cannot be used: {why}</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="458"/>
        <source>赞助企业 {sid}</source>
        <translation>Sponsor {sid}</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="461"/>
        <source>名称（上屏）</source>
        <translation>Name (on screen)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="461"/>
        <source>如 小当家</source>
        <translation>e.g. 小当家</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="462"/>
        <source>全称</source>
        <translation>Full name</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="462"/>
        <source>如 小当家便利店配货中心</source>
        <translation>e.g. 小当家便利店配货中心</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="463"/>
        <source>联系人</source>
        <translation>Contact</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="463"/>
        <source>如 市场部 王经理</source>
        <translation>e.g. marketing, Mr Wang</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="465"/>
        <location filename="../producer/forms.py" line="538"/>
        <source>LOGO</source>
        <translation>Logo</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="480"/>
        <source>整个广告位</source>
        <translation>The whole slot</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="484"/>
        <source>奖品</source>
        <translation>Prize</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="484"/>
        <source>如 粮油礼包</source>
        <translation>e.g. 粮油礼包 (grain and oil pack)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="486"/>
        <location filename="../producer/tabs/sponsors.py" line="47"/>
        <source>赞助企业</source>
        <translation>Sponsors</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="488"/>
        <source>广告语</source>
        <translation>Slogan</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="488"/>
        <source>格子背面的广告语</source>
        <translation>slogan on the back of the cell</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="490"/>
        <source>鸣谢文字</source>
        <translation>Credit text</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="490"/>
        <source>如 本节目礼品由小当家独家提供</source>
        <translation>e.g. 本节目礼品由小当家独家提供</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="492"/>
        <source>签约日期（定播出顺序）</source>
        <translation>Signed on (sets the airing order)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="492"/>
        <source>签约日期</source>
        <translation>Signed on</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="501"/>
        <source>合同开始</source>
        <translation>Contract starts</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="502"/>
        <source>合同结束</source>
        <translation>Contract ends</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="507"/>
        <source>时长（秒）</source>
        <translation>Length (s)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="509"/>
        <source>{s} 秒</source>
        <translation>{s} s</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="518"/>
        <source>须念出企业名称</source>
        <translation>must say the sponsor&apos;s name</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="519"/>
        <source>按方案</source>
        <translation>as the package says</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="520"/>
        <source>按招商方案的标版写法填入</source>
        <translation>as the sponsorship package words the bumper</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="531"/>
        <source>{s}秒标版文字</source>
        <translation>{s} s bumper text</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="534"/>
        <source>宣传片</source>
        <translation>Brand film</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="535"/>
        <source>宣传片编号</source>
        <translation>Film id</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="535"/>
        <source>如 xiaodangjia_15s</source>
        <translation>e.g. xiaodangjia_15s</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="538"/>
        <source>LOGO（不填用企业的）</source>
        <translation>Logo (empty: the sponsor&apos;s)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="541"/>
        <source>流字（每行一条）</source>
        <translation>Ticker lines (one per line)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="546"/>
        <source>上屏图形</source>
        <translation>On-screen graphics</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="546"/>
        <source>默认按广告位</source>
        <translation>default: the slot&apos;s</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="550"/>
        <source>OBS 场景</source>
        <translation>OBS scenes</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="552"/>
        <source>如 桌面俯拍（逗号分隔）</source>
        <translation>e.g. 桌面俯拍 (comma separated)</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="557"/>
        <source>备注</source>
        <translation>Note</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="585"/>
        <source>元</source>
        <translation>yuan</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="589"/>
        <source>元/{u}</source>
        <translation>yuan/{u}</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="590"/>
        <location filename="../producer/tabs/sponsors.py" line="79"/>
        <source>刊例价</source>
        <translation>List price</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="613"/>
        <location filename="../producer/tabs/sponsors.py" line="79"/>
        <source>价格</source>
        <translation>Price</translation>
    </message>
    <message>
        <location filename="../producer/forms.py" line="689"/>
        <source>每期至少（空 = 按方案）</source>
        <translation>Minimum per episode (empty = the package)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="43"/>
        <source>节目</source>
        <translation>Show</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="44"/>
        <source>节目名称</source>
        <translation>Show title</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="45"/>
        <source>季</source>
        <translation>Season</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="45"/>
        <source>第一季</source>
        <translation>Season 1</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="57"/>
        <source>新企业编号，如 xiaodangjia</source>
        <translation>new sponsor id, e.g. xiaodangjia</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="58"/>
        <source>＋ 登记</source>
        <translation>+ Register</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="65"/>
        <source>删除所选企业</source>
        <translation>Remove the selected sponsor</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="75"/>
        <source>合同（该企业买的广告位）</source>
        <translation>Contracts (the slots this sponsor bought)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="46"/>
        <location filename="../producer/tabs/slots.py" line="222"/>
        <location filename="../producer/tabs/sponsors.py" line="79"/>
        <source>广告位</source>
        <translation>Slot</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="79"/>
        <source>签约</source>
        <translation>Signed</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="79"/>
        <source>合同期</source>
        <translation>Contract period</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="79"/>
        <source>本期问题</source>
        <translation>Issues</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="85"/>
        <source>为该企业新增广告位 ▾</source>
        <translation>Buy a slot for this sponsor ▾</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="130"/>
        <source>编号 {sid} 已登记</source>
        <translation>id {sid} is already registered</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="196"/>
        <source>先登记并选中一家企业</source>
        <translation>Register and select a sponsor first</translation>
    </message>
    <message>
        <location filename="../producer/tabs/sponsors.py" line="200"/>
        <source>{slot}是独家广告位，已经有了</source>
        <translation>{slot} is exclusive and already taken</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="46"/>
        <source>节目流程 · 插播时段</source>
        <translation>Rundown · breaks</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="47"/>
        <source>每期局数</source>
        <translation>Games per episode</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="48"/>
        <source>每期选手人数</source>
        <translation>Contestants per episode</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="52"/>
        <source>可排的片子</source>
        <translation>Films available</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="55"/>
        <source>＋ 插播时段</source>
        <translation>+ Break</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="60"/>
        <source>（还没有宣传片）</source>
        <translation>(no films yet)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="72"/>
        <source>第{n}个时段 位置</source>
        <translation>Break {n}: after</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="74"/>
        <source>第{n}个时段 片子</source>
        <translation>Break {n}: films</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="106"/>
        <source>预览 PREVIEW（未保存的排期，按播出画面）</source>
        <translation>PREVIEW (the unsaved placements, as they will air)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="121"/>
        <source>节目 PGM（图形页）</source>
        <translation>PGM (graphics page)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="124"/>
        <source>（未启用网页预览）</source>
        <translation>(page preview disabled)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="153"/>
        <source>这个广告位还不完整或排期有错误：改正后显示播出画面</source>
        <translation>This slot is incomplete or the placements have errors: fix them to see it as it airs</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="169"/>
        <source>图形页：节目总线（program.html），与 OBS 浏览器源相同；状态由未保存的排期生成</source>
        <translation>Graphics page: the program bus (program.html), the same as OBS&apos;s browser source; its state made from the unsaved placements</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="178"/>
        <source>{id}：{s:.1f} 秒（OBS 媒体源全屏播出，不经图形页）</source>
        <translation>{id}: {s:.1f} s (played full screen by an OBS media source, not the graphics page)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="192"/>
        <source>现场实物广告位：屏幕上没有图形，镜头拍到的是实物（以下为所用 LOGO）</source>
        <translation>A physical placement in the studio: no graphics on screen, the cameras show the object (its logo below)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="197"/>
        <source>没有 LOGO</source>
        <translation>No logo</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="222"/>
        <source>企业</source>
        <translation>Sponsor</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="226"/>
        <source>＋ 广告位 ▾</source>
        <translation>+ Slot ▾</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="232"/>
        <location filename="../producer/tabs/slots.py" line="281"/>
        <source>节目流程（插播时段）</source>
        <translation>Rundown (breaks)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="237"/>
        <source>删除</source>
        <translation>Delete</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="273"/>
        <source>（按签约先后播出）</source>
        <translation>(aired in signing order)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="361"/>
        <source>先在“赞助与合同”里登记企业</source>
        <translation>Register a sponsor under &quot;Sponsors and contracts&quot; first</translation>
    </message>
    <message>
        <location filename="../producer/tabs/slots.py" line="375"/>
        <source>九宫格必须正好 9 格：改每一格的内容，不能删格</source>
        <translation>The prize grid has exactly 9 cells: change a cell, do not remove it</translation>
    </message>
    <message>
        <location filename="../producer/tabs/qualifiers.py" line="152"/>
        <location filename="../producer/tabs/season.py" line="48"/>
        <source>赛季</source>
        <translation>Season</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="50"/>
        <source>新建赛季</source>
        <translation>New season</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="53"/>
        <source>导入名单（CSV/XLSX）…</source>
        <translation>Import roster (CSV/XLSX)…</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="63"/>
        <location filename="../producer/tabs/season.py" line="77"/>
        <location filename="../producer/tabs/season.py" line="365"/>
        <source>队伍</source>
        <translation>Teams</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="64"/>
        <source>队名</source>
        <translation>Team</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="64"/>
        <source>冠名</source>
        <translation>Sponsor</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="64"/>
        <source>颜色</source>
        <translation>Colour</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="68"/>
        <source>＋ 队伍</source>
        <translation>+ Team</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="75"/>
        <source>参赛选手</source>
        <translation>Players</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="77"/>
        <location filename="../producer/tabs/season.py" line="365"/>
        <source>照片</source>
        <translation>Photo</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="77"/>
        <location filename="../producer/tabs/season.py" line="365"/>
        <source>编号</source>
        <translation>Code</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="77"/>
        <location filename="../producer/tabs/season.py" line="365"/>
        <source>姓名</source>
        <translation>Name</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="77"/>
        <location filename="../producer/tabs/season.py" line="365"/>
        <source>性别</source>
        <translation>Gender</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="77"/>
        <location filename="../producer/tabs/season.py" line="365"/>
        <source>电话</source>
        <translation>Phone</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="77"/>
        <location filename="../producer/tabs/season.py" line="365"/>
        <source>籍贯</source>
        <translation>Home town</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="84"/>
        <source>＋ 选手</source>
        <translation>+ Player</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="87"/>
        <source>所选选手的照片…</source>
        <translation>Selected player&apos;s photo…</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="97"/>
        <source>各期（播出日期 · 合同是否覆盖）</source>
        <translation>Episodes (air date · covered by the contracts?)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="98"/>
        <source>期</source>
        <translation>Episode</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="98"/>
        <source>播出日期</source>
        <translation>Air date</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="98"/>
        <source>合同未覆盖的广告位</source>
        <translation>Slots whose contract does not cover it</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="102"/>
        <source>＋ 一期</source>
        <translation>+ Episode</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="182"/>
        <source>✓ 全部覆盖</source>
        <translation>✓ all covered</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="199"/>
        <location filename="../producer/tabs/season.py" line="213"/>
        <location filename="../producer/tabs/season.py" line="232"/>
        <location filename="../producer/tabs/season.py" line="302"/>
        <source>先新建赛季</source>
        <translation>Create a season first</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="205"/>
        <source>新队伍{n}</source>
        <translation>New team {n}</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="223"/>
        <source>新选手{n}</source>
        <translation>New player {n}</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="279"/>
        <source>先选中一名选手</source>
        <translation>Select a player first</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="284"/>
        <source>选手照片</source>
        <translation>Player&apos;s photo</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="306"/>
        <source>选手名单</source>
        <translation>Roster</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="306"/>
        <source>名单 (*.csv *.xlsx *.txt)</source>
        <translation>Rosters (*.csv *.xlsx *.txt)</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="332"/>
        <source>已导入：新增 {a} 名，更新 {u} 名</source>
        <translation>Imported: {a} added, {u} updated</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="341"/>
        <source>导入预览：{f}</source>
        <translation>Import preview: {f}</translation>
    </message>
    <message numerus="yes">
        <location filename="../producer/tabs/season.py" line="346"/>
        <source>%n 行可以导入：新增 {a} 名、更新 {u} 名选手</source>
        <translation>
            <numerusform>%n row can be imported (players: {a} new, {u} updated)</numerusform>
            <numerusform>%n rows can be imported (players: {a} new, {u} updated)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../producer/tabs/season.py" line="351"/>
        <source>有 %n 个问题，整份名单都不会导入（改正后再试）</source>
        <translation>
            <numerusform>%n problem: nothing of the roster will be imported (fix it and try again)</numerusform>
            <numerusform>%n problems: nothing of the roster will be imported (fix them and try again)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="349"/>
        <source>；新队伍：{t}</source>
        <translation>; new teams: {t}</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="365"/>
        <source>行</source>
        <translation>Row</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="386"/>
        <source>导入</source>
        <translation>Import</translation>
    </message>
    <message>
        <location filename="../producer/tabs/season.py" line="388"/>
        <location filename="../producer/window.py" line="237"/>
        <source>取消</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="33"/>
        <source>按“刷新”读取播出记录</source>
        <translation>Press &quot;Refresh&quot; to read the as-run log</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="36"/>
        <location filename="../producer/tabs/qualifiers.py" line="148"/>
        <source>刷新</source>
        <translation>Refresh</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="40"/>
        <source>导出 XLSX + PDF…</source>
        <translation>Export XLSX + PDF…</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="46"/>
        <source>赞助商</source>
        <translation>Sponsor</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="46"/>
        <source>项目</source>
        <translation>Item</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="46"/>
        <source>累计承诺</source>
        <translation>Promised so far</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="46"/>
        <source>累计实际</source>
        <translation>Delivered so far</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="46"/>
        <source>欠</source>
        <translation>Owed</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="46"/>
        <source>后续补足</source>
        <translation>To add in coming episodes</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="52"/>
        <source>只计 OBS 确认播出的画面（与每期播出报告同一算法）；合同未覆盖的期不计承诺；以已保存的排期为准。</source>
        <translation>Only what OBS confirmed on air counts (the same computation as the episode report); episodes outside a contract promise nothing; the saved placements are used.</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="63"/>
        <location filename="../producer/tabs/qualifiers.py" line="136"/>
        <source>读取中…</source>
        <translation>Reading…</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="73"/>
        <source>无法计算：{why}</source>
        <translation>Cannot compute: {why}</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="91"/>
        <source> 期</source>
        <translation> episodes</translation>
    </message>
    <message numerus="yes">
        <location filename="../producer/tabs/delivery.py" line="98"/>
        <source>截至 {ep}：已播 %n 期，待播 {m} 期，{k} 项累计未达标</source>
        <translation>
            <numerusform>Through {ep}: %n episode aired, {m} to come; items short so far: {k}</numerusform>
            <numerusform>Through {ep}: %n episodes aired, {m} to come; items short so far: {k}</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="105"/>
        <source>导出到</source>
        <translation>Export to</translation>
    </message>
    <message>
        <location filename="../producer/tabs/delivery.py" line="112"/>
        <source>已导出：{f}</source>
        <translation>Exported: {f}</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="63"/>
        <location filename="../producer/window.py" line="279"/>
        <source>赞助与合同</source>
        <translation>Sponsors and contracts</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="64"/>
        <location filename="../producer/window.py" line="280"/>
        <source>广告位与预览</source>
        <translation>Slots and preview</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="65"/>
        <location filename="../producer/window.py" line="281"/>
        <source>选手与赛季</source>
        <translation>Roster and season</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="66"/>
        <location filename="../producer/window.py" line="282"/>
        <source>赛季播出</source>
        <translation>Season delivery</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="73"/>
        <location filename="../producer/window.py" line="293"/>
        <source>检查结果（与 sponsors check 相同）</source>
        <translation>Checks (the same as sponsors check)</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="82"/>
        <source>排期</source>
        <translation>Placements</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="85"/>
        <location filename="../producer/window.py" line="290"/>
        <source>保存排期 (Ctrl+S)</source>
        <translation>Save placements (Ctrl+S)</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="92"/>
        <location filename="../producer/window.py" line="291"/>
        <source>重新读取文件</source>
        <translation>Read the file again</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="102"/>
        <location filename="../producer/window.py" line="292"/>
        <source>视图(&amp;V)</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="121"/>
        <source>已保存：{f}</source>
        <translation>Saved: {f}</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="124"/>
        <location filename="../producer/window.py" line="294"/>
        <source>制片工作台 · 《够级大明星》赞助排期与赛季</source>
        <translation>Producer&apos;s workspace · 《够级大明星》 sponsor placements and season</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="145"/>
        <source>第{n}格</source>
        <translation>cell {n}</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="147"/>
        <source>第{n}行</source>
        <translation>line {n}</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="155"/>
        <source>{label}（第{n}家，签约 {d}）</source>
        <translation>{label} (no. {n}, signed {d})</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="160"/>
        <source>{label} {s}秒</source>
        <translation>{label} {s} s</translation>
    </message>
    <message numerus="yes">
        <location filename="../producer/window.py" line="249"/>
        <source>未保存：%n 个错误（见下方检查结果）</source>
        <translation>
            <numerusform>Not saved: %n error (see the checks below)</numerusform>
            <numerusform>Not saved: %n errors (see the checks below)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="204"/>
        <source>检查通过</source>
        <translation>Checks passed</translation>
    </message>
    <message numerus="yes">
        <location filename="../producer/window.py" line="204"/>
        <source>有 %n 个错误，不能保存</source>
        <translation>
            <numerusform>%n error: cannot save</numerusform>
            <numerusform>%n errors: cannot save</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="205"/>
        <source>未保存</source>
        <translation>unsaved</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="234"/>
        <source>文件被改过</source>
        <translation>The file was changed</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="235"/>
        <source>覆盖别人的修改，还是先重新读取？</source>
        <translation>Overwrite the other changes, or read the file again first?</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="236"/>
        <source>覆盖保存</source>
        <translation>Overwrite</translation>
    </message>
    <message>
        <location filename="../producer/window.py" line="300"/>
        <source>排期有未保存的修改</source>
        <translation>The placements have unsaved changes</translation>
    </message>
</context>
</TS>
