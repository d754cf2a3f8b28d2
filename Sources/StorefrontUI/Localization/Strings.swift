import StoreCore

/// The interface's words in English, Simplified Chinese and Japanese: a small pure table.
public struct Strings: Sendable {
    /// The language these strings are in.
    public let language: UILanguage

    /// The strings for `language`.
    public init(_ language: UILanguage) { self.language = language }

    /// One phrase, by its English text; a phrase with no translation stays in English.
    public func callAsFunction(_ english: String) -> String {
        switch language {
        case .english: english
        case .simplifiedChinese: Self.chinese[english] ?? english
        case .japanese: Self.japanese[english] ?? english
        }
    }

    /// A phrase with `{}` placeholders filled in order.
    public func callAsFunction(_ english: String, _ arguments: String...) -> String {
        var result = ""
        var remaining = arguments[...]
        var previous: Character?
        for character in self(english) {
            if previous == "{", character == "}", let argument = remaining.popFirst() {
                result.removeLast()
                result += argument
                previous = nil
                continue
            }
            result.append(character)
            previous = character
        }
        return result
    }

    /// The localized name of a product type.
    public func typeName(_ type: ProductType) -> String {
        switch type {
        case .consumable: self("Consumable")
        case .nonConsumable: self("Non-Consumable")
        case .autoRenewable: self("Subscription")
        case .nonRenewing: self("Non-Renewing")
        default: type.rawValue
        }
    }

    /// The localized heading of a group of products of one type.
    public func groupName(_ type: ProductType) -> String {
        switch type {
        case .consumable: self("Consumables")
        case .nonConsumable: self("Non-Consumables")
        case .autoRenewable: self("Subscriptions")
        case .nonRenewing: self("Non-Renewing Subscriptions")
        default: type.rawValue
        }
    }

    static let chinese: [String: String] = [
        "Storefront": "商店",
        "Account": "账户",
        "Consumable": "消耗型",
        "Non-Consumable": "非消耗型",
        "Subscription": "自动续期订阅",
        "Non-Renewing": "非续期订阅",
        "Consumables": "消耗型项目",
        "Non-Consumables": "非消耗型项目",
        "Subscriptions": "订阅",
        "Non-Renewing Subscriptions": "非续期订阅",
        "Owned": "已拥有",
        "Balance {}": "余额 {}",
        "Active until {}": "有效期至 {}",
        "Expired {}": "已于 {} 过期",
        "Waiting for approval": "等待批准",
        "Purchasing…": "正在购买…",
        "Downloading {}": "正在下载 {}",
        "Loading products…": "正在载入产品…",
        "No products": "没有产品",
        "No products match “{}”": "没有与“{}”匹配的产品",
        "Filter": "筛选",
        "Help": "帮助",
        "Menu": "菜单",
        "Buy": "购买",
        "Quit": "退出",
        "Log": "日志",
        "Description": "描述",
        "Offers": "优惠",
        "Introductory offer": "推介促销",
        "Promotional offer": "促销优惠",
        "Free trial": "免费试用",
        "Pay as you go": "随用随付",
        "Pay up front": "预先支付",
        "{} for {}": "{}，为期 {}",
        "Renews every {}": "每 {} 续期",
        "Group {}, level {}": "群组 {}，级别 {}",
        "Has downloadable content": "含可下载内容",
        "Confirm Your In-App Purchase": "确认您的 App 内购买项目",
        "Product": "产品",
        "Price": "价格",
        "Enter: Buy   Esc: Cancel": "Enter：购买   Esc：取消",
        "Contacting the App Store": "正在联系 App Store",
        "Authorizing": "正在授权",
        "Verifying": "正在验证",
        "Downloading": "正在下载",
        "Done": "完成",
        "Purchased {}": "已购买 {}",
        "{} is waiting for approval (Ask to Buy)": "{} 正在等待批准（询问后购买）",
        "Purchase of {} cancelled": "已取消购买 {}",
        "Purchase of {} failed: {}": "购买 {} 失败：{}",
        "Restore Purchases": "恢复购买",
        "Refresh Receipt": "刷新收据",
        "Storefront & Language": "店面与语言",
        "Store Settings": "商店设置",
        "Transaction Manager": "交易管理器",
        "My Purchases": "我的购买",
        "Restoring purchases…": "正在恢复购买…",
        "Restored {} purchases": "已恢复 {} 项购买",
        "Restore failed: {}": "恢复失败：{}",
        "Receipt refreshed ({} bytes)": "收据已刷新（{} 字节）",
        "Refreshing the receipt…": "正在刷新收据…",
        "Receipt refresh failed: {}": "刷新收据失败：{}",
        "Storefront set to {} ({})": "店面已设为 {}（{}）",
        "Setting {} changed to {}": "设置 {} 已改为 {}",
        "Error: {}": "错误：{}",
        "Keys": "按键",
        "Move": "移动",
        "Pause/resume download": "暂停/继续下载",
        "Cancel download": "取消下载",
        "Group by type / subscription group": "按类型 / 订阅群组分组",
        "Show or hide the event log": "显示或隐藏事件日志",
        "Close this window": "关闭此窗口",
        "Show this help": "显示此帮助",
        "Filter products as you type": "输入时筛选产品",
        "Open the menu": "打开菜单",
        "Event Log": "事件日志",
        "Downloads": "下载",
        "paused": "已暂停",
        "failed": "失败",
        "cancelled": "已取消",
        "finished": "已完成",
        "waiting": "等待中",
        "{} left": "剩余 {}",
        "Approve": "批准",
        "Decline": "拒绝",
        "Refund": "退款",
        "Resolve": "解决",
        "Consume": "消耗",
        "History": "历史记录",
        "Balances": "余额",
        "No transactions": "没有交易",
        "Nothing to restore": "没有可恢复的项目",
        "On": "开",
        "Off": "关",
        "Terminal too small: {}×{} (need at least {}×{})": "终端太小：{}×{}（至少需要 {}×{}）",
        "Language": "语言",
        "Waiting": "等待中",
        "Refunded": "已退款",
        "Loading…": "正在载入…",
        "Interrupted": "已中断",
        "Transactions that wait for a decision": "等待处理的交易",
        "Group": "分组",
        "Consumed one {}": "已消耗一个 {}",
        "Approved transaction {}": "已批准交易 {}",
        "Declined transaction {}": "已拒绝交易 {}",
        "Refunded transaction {}": "已退款交易 {}",
        "Resolved transaction {}": "已解决交易 {}",
        "Download of {} finished": "{} 下载完成",
        "Download of {} failed: {}": "{} 下载失败：{}",
        "You already own {}": "您已拥有 {}",
        "The payment was cancelled.": "付款已取消。",
        "Payments are not allowed on this device or account.": "此设备或账户不允许付款。",
        "The store could not be reached.": "无法连接商店。",
        "Ask to Buy": "询问后购买",
        "Simulated purchase errors": "模拟购买错误",
        "Payments allowed": "允许付款",
        "Latency (ms)": "延迟（毫秒）",
        "Time rate": "时间倍率",
    ]

    static let japanese: [String: String] = [
        "Storefront": "ストア",
        "Account": "アカウント",
        "Consumable": "消耗型",
        "Non-Consumable": "非消耗型",
        "Subscription": "自動更新サブスク",
        "Non-Renewing": "非更新サブスク",
        "Consumables": "消耗型アイテム",
        "Non-Consumables": "非消耗型アイテム",
        "Subscriptions": "サブスクリプション",
        "Non-Renewing Subscriptions": "非更新サブスクリプション",
        "Owned": "購入済み",
        "Balance {}": "残高 {}",
        "Active until {}": "{} まで有効",
        "Expired {}": "{} に期限切れ",
        "Waiting for approval": "承認待ち",
        "Purchasing…": "購入中…",
        "Downloading {}": "ダウンロード中 {}",
        "Loading products…": "商品を読み込み中…",
        "No products": "商品がありません",
        "No products match “{}”": "「{}」に一致する商品はありません",
        "Filter": "絞り込み",
        "Help": "ヘルプ",
        "Menu": "メニュー",
        "Buy": "購入",
        "Quit": "終了",
        "Log": "ログ",
        "Description": "説明",
        "Offers": "オファー",
        "Introductory offer": "導入オファー",
        "Promotional offer": "プロモーションオファー",
        "Free trial": "無料トライアル",
        "Pay as you go": "都度払い",
        "Pay up front": "前払い",
        "{} for {}": "{}（{}）",
        "Renews every {}": "{}ごとに更新",
        "Group {}, level {}": "グループ {}、レベル {}",
        "Has downloadable content": "ダウンロードコンテンツあり",
        "Confirm Your In-App Purchase": "App内課金の確認",
        "Product": "商品",
        "Price": "価格",
        "Enter: Buy   Esc: Cancel": "Enter：購入   Esc：キャンセル",
        "Contacting the App Store": "App Store に接続中",
        "Authorizing": "承認中",
        "Verifying": "検証中",
        "Downloading": "ダウンロード中",
        "Done": "完了",
        "Purchased {}": "{} を購入しました",
        "{} is waiting for approval (Ask to Buy)": "{} は承認待ちです（承認と購入のリクエスト）",
        "Purchase of {} cancelled": "{} の購入をキャンセルしました",
        "Purchase of {} failed: {}": "{} の購入に失敗しました：{}",
        "Restore Purchases": "購入を復元",
        "Refresh Receipt": "レシートを更新",
        "Storefront & Language": "ストアと言語",
        "Store Settings": "ストア設定",
        "Transaction Manager": "トランザクション管理",
        "My Purchases": "購入履歴",
        "Restoring purchases…": "購入を復元中…",
        "Restored {} purchases": "{} 件の購入を復元しました",
        "Restore failed: {}": "復元に失敗しました：{}",
        "Receipt refreshed ({} bytes)": "レシートを更新しました（{} バイト）",
        "Refreshing the receipt…": "レシートを更新中…",
        "Receipt refresh failed: {}": "レシートの更新に失敗しました：{}",
        "Storefront set to {} ({})": "ストアを {}（{}）に変更しました",
        "Setting {} changed to {}": "設定 {} を {} に変更しました",
        "Error: {}": "エラー：{}",
        "Keys": "キー",
        "Move": "移動",
        "Pause/resume download": "ダウンロードの一時停止／再開",
        "Cancel download": "ダウンロードをキャンセル",
        "Group by type / subscription group": "種類／サブスクグループでまとめる",
        "Show or hide the event log": "イベントログの表示／非表示",
        "Close this window": "このウインドウを閉じる",
        "Show this help": "このヘルプを表示",
        "Filter products as you type": "入力して商品を絞り込む",
        "Open the menu": "メニューを開く",
        "Event Log": "イベントログ",
        "Downloads": "ダウンロード",
        "paused": "一時停止",
        "failed": "失敗",
        "cancelled": "キャンセル",
        "finished": "完了",
        "waiting": "待機中",
        "{} left": "残り {}",
        "Approve": "承認",
        "Decline": "拒否",
        "Refund": "返金",
        "Resolve": "解決",
        "Consume": "消費",
        "History": "履歴",
        "Balances": "残高",
        "No transactions": "トランザクションはありません",
        "Nothing to restore": "復元する購入はありません",
        "On": "オン",
        "Off": "オフ",
        "Terminal too small: {}×{} (need at least {}×{})": "端末が小さすぎます：{}×{}（{}×{} 以上が必要）",
        "Language": "言語",
        "Waiting": "待機中",
        "Refunded": "返金済み",
        "Loading…": "読み込み中…",
        "Interrupted": "中断",
        "Transactions that wait for a decision": "対応待ちのトランザクション",
        "Group": "グループ",
        "Consumed one {}": "{} を 1 つ消費しました",
        "Approved transaction {}": "トランザクション {} を承認しました",
        "Declined transaction {}": "トランザクション {} を拒否しました",
        "Refunded transaction {}": "トランザクション {} を返金しました",
        "Resolved transaction {}": "トランザクション {} を解決しました",
        "Download of {} finished": "{} のダウンロードが完了しました",
        "Download of {} failed: {}": "{} のダウンロードに失敗しました：{}",
        "You already own {}": "{} はすでに購入済みです",
        "The payment was cancelled.": "支払いはキャンセルされました。",
        "Payments are not allowed on this device or account.": "このデバイスまたはアカウントでは支払いが許可されていません。",
        "The store could not be reached.": "ストアに接続できませんでした。",
        "Ask to Buy": "承認と購入のリクエスト",
        "Simulated purchase errors": "購入エラーのシミュレーション",
        "Payments allowed": "支払いを許可",
        "Latency (ms)": "遅延（ミリ秒）",
        "Time rate": "時間の倍率",
    ]
}
